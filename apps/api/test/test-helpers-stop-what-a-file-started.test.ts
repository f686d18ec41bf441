import { describe, expect, it } from 'vitest';
import { stopAfterFile, stopWhatTheFileStarted } from './helpers/file-cleanup.js';

describe('the helpers stop what a file started', () => {
  it('runs each listed stop once, after the file or sooner, whichever comes first', async () => {
    const stopped: string[] = [];
    const early = stopAfterFile(() => {
      stopped.push('early');
    });
    stopAfterFile(async () => {
      await Promise.resolve();
      stopped.push('late');
    });
    await early();
    await early();
    expect(stopped).toEqual(['early']);
    await stopWhatTheFileStarted();
    await stopWhatTheFileStarted();
    expect(stopped).toEqual(['early', 'late']);
  });

  it('keeps a stop that fails from hiding the others', async () => {
    const stopped: string[] = [];
    stopAfterFile(() => {
      throw new Error('cannot stop');
    });
    stopAfterFile(() => {
      stopped.push('other');
    });
    await expect(stopWhatTheFileStarted()).rejects.toThrow('cannot stop');
    expect(stopped).toEqual(['other']);
  });
});
