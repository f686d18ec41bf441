export type { ErrorCode, ErrorDetail, NewPet, Pet, PetStatus } from '@animal-store/contract';
export {
  AnimalStoreClient,
  type CallOptions,
  type ClientOptions,
  type Created,
  type CreateOptions,
  DEFAULT_TIMEOUT_MS,
  type Fetched,
  type ListOptions,
  type ListQuery,
  type PetPage,
  PetsApi,
  type RequestEvent,
  type ResponseEvent,
} from './client.js';
export { ENVIRONMENTS, type Environment } from './environments.js';
export { AnimalStoreError, type ClientErrorCode, GoneError } from './errors.js';
export type { RetryOptions } from './retry.js';
