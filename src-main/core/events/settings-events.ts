/**
 * Settings changes, told to the services whose work they re-plan (STYLE.md §13): the settings
 * repository publishes after it saved an update; the embedding service re-configures (a new model or
 * key: a re-embed), the scheduler re-plans, search picks up the reranker choice. The update returns
 * when they all have.
 */
import type { SettingsView } from '@shared/models';
import { AwaitedEventBus } from './awaited-event-bus';

export interface SettingsChange {
  before: SettingsView;
  after: SettingsView;
  /**
   * The providers whose API key the update wrote (set or removed). A key alone counts: the same
   * model behind a new key needs no re-embed, but a provider that could not be built may be now.
   */
  keysWritten: ('embedding' | 'chat')[];
}

export interface SettingsEvents {
  'settings.changed': SettingsChange;
}

export class SettingsEventBus extends AwaitedEventBus<SettingsEvents> {}
