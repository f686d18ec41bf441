import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { auth } from './helpers/api.js';
import { startApiProcess } from './helpers/processes.js';

// Loaded into the service before its own code: on exit, says whether the MongoDB driver was
// ever loaded (the driver is CommonJS, so it shows in the module cache).
const DRIVER_PROBE = `data:text/javascript,${encodeURIComponent(`
import { createRequire } from 'node:module';
const cache = createRequire(process.cwd() + '/').cache;
process.on('exit', () => {
  const loaded = Object.keys(cache).some((file) => /[\\\\/]node_modules[\\\\/]mongodb[\\\\/]/.test(file));
  process.stderr.write('mongodb driver loaded: ' + loaded + '\\n');
});
`)}`;

describe('the service on its embedded store', () => {
  it('serves without ever loading the MongoDB driver', async () => {
    const api = await startApiProcess({ API_KEYS: 'test-key-0123456789' }, [
      `--import=${DRIVER_PROBE}`,
    ]);
    const res = await fetch(`${api.base}/pets`, { headers: auth });
    expect(res.status).toBe(200);
    api.child.kill('SIGTERM');
    await once(api.child, 'exit');
    expect(api.stderr()).toContain('mongodb driver loaded: false');
  });
});
