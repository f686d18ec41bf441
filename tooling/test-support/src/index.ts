export { API_MAIN, type StartApiOptions, type StartedApi, startBuiltApi } from './api.js';
export { selfSignedCertificate, type TestCertificate } from './certificate.js';
export { launchChromium, newContext } from './chromium.js';
export { freePort, listensOn, onFreePort, portAccepts } from './port.js';
export {
  type Finished,
  killAll,
  type LoggedProcess,
  runProcess,
  type SpawnLoggedOptions,
  START_TIMEOUT_MS,
  type StartedProcess,
  spawnLogged,
  startLogged,
  waitUntil,
} from './process.js';
export { PYTHON_VENV } from './python.js';
export { TemporaryFolder } from './temporary-folder.js';
