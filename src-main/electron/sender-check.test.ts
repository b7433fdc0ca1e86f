import { describe, expect, it } from 'vitest';
import { isTrustedSender } from './sender-check';

const fileRenderer = {
  webContentsId: 1,
  rendererUrl: 'file:///opt/Cairn/resources/app.asar/out/renderer/index.html',
};

describe('isTrustedSender', () => {
  it('accepts only our window, top frame, and our renderer page', () => {
    const cases = [
      {
        webContentsId: 1,
        frameUrl: 'file:///opt/Cairn/resources/app.asar/out/renderer/index.html#/chat',
        isMainFrame: true,
      },
      {
        webContentsId: 2,
        frameUrl: 'file:///opt/Cairn/resources/app.asar/out/renderer/index.html',
        isMainFrame: true,
      },
      {
        webContentsId: 1,
        frameUrl: 'file:///opt/Cairn/resources/app.asar/out/renderer/index.html',
        isMainFrame: false,
      },
      { webContentsId: 1, frameUrl: 'file:///home/me/notes/evil.html', isMainFrame: true },
      { webContentsId: 1, frameUrl: 'https://evil.example/', isMainFrame: true },
      { webContentsId: 1, frameUrl: undefined, isMainFrame: true },
    ];
    expect(cases.map((sender) => isTrustedSender(sender, fileRenderer))).toEqual([
      true,
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('accepts the dev server origin only in dev', () => {
    const dev = { webContentsId: 1, rendererUrl: 'http://localhost:5173/' };
    expect([
      isTrustedSender(
        { webContentsId: 1, frameUrl: 'http://localhost:5173/index.html', isMainFrame: true },
        dev,
      ),
      isTrustedSender({ webContentsId: 1, frameUrl: 'http://localhost:5174/', isMainFrame: true }, dev),
    ]).toEqual([true, false]);
  });
});
