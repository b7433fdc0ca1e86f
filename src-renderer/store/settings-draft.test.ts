import { describe, expect, it } from 'vitest';
import { settings } from '../test/fake-api';
import {
  savedDraft,
  sectionDraft,
  sectionPatch,
  unsavedSections,
  type SettingsEdits,
} from './settings-draft';

describe('settings draft', () => {
  const saved = settings({
    chat: { provider: 'custom', baseUrl: 'http://a/v1', model: 'm', hasApiKey: true, topK: 10 },
  });

  it('shows the saved values until a section is edited, with key fields empty', () => {
    const edits: SettingsEdits = { sync: { syncIntervalHours: 6, scheduledSyncPaused: false } };
    expect({
      chat: sectionDraft(saved, edits, 'chat'),
      sync: sectionDraft(saved, edits, 'sync'),
      models: savedDraft(saved, 'models'),
    }).toEqual({
      chat: { provider: 'custom', baseUrl: 'http://a/v1', model: 'm', topK: 10, apiKey: '' },
      sync: { syncIntervalHours: 6, scheduledSyncPaused: false },
      models: { source: 'huggingface', mirrorUrl: 'https://hf-mirror.com' },
    });
  });

  it('saves only what differs per section, a typed key always, and nothing for an edit put back', () => {
    const edits: SettingsEdits = {
      chat: { provider: 'custom', baseUrl: 'http://a/v1', model: 'm2', topK: 10, apiKey: 'sk-1' },
      sync: { syncIntervalHours: 24, scheduledSyncPaused: true },
      embedding: { ...savedDraft(saved, 'embedding') },
      models: { source: 'mirror', mirrorUrl: 'https://mirror.example' },
    };
    expect({
      chat: sectionPatch(saved, edits, 'chat'),
      keyOnly: sectionPatch(saved, { chat: { ...savedDraft(saved, 'chat'), apiKey: 'sk-2' } }, 'chat'),
      sync: sectionPatch(saved, edits, 'sync'),
      embedding: sectionPatch(saved, edits, 'embedding'),
      models: sectionPatch(saved, edits, 'models'),
      unsaved: unsavedSections(saved, edits),
      none: unsavedSections(null, edits),
    }).toEqual({
      chat: { chat: { provider: 'custom', baseUrl: 'http://a/v1', model: 'm2', topK: 10, apiKey: 'sk-1' } },
      keyOnly: { chat: { provider: 'custom', baseUrl: 'http://a/v1', model: 'm', topK: 10, apiKey: 'sk-2' } },
      sync: { scheduledSyncPaused: true },
      embedding: null,
      models: { models: { source: 'mirror', mirrorUrl: 'https://mirror.example' } },
      unsaved: ['chat', 'sync', 'models'],
      none: [],
    });
  });
});
