import './vitest-context.js';

export { FERRETDB_VERSION, ferretdbBinary } from './ferretdb.js';
export {
  type Attempt,
  NoTestMongoError,
  startTestMongo,
  strategiesFromEnv,
  uniqueDbName,
} from './start.js';
export {
  type FaultyLink,
  startToxiproxy,
  TOXIPROXY_VERSION,
  type Toxic,
  type Toxiproxy,
  toxiproxyBinary,
} from './toxiproxy.js';
export {
  type Outage,
  STRATEGIES,
  type Strategy,
  type TestMongo,
  type TestMongoOptions,
} from './types.js';
