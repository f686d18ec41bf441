export type { ErrorCode, ErrorDetail, NewPet, Pet, PetStatus } from '@animal-store/contract';
export {
  AnimalStoreClient,
  type ClientOptions,
  type Created,
  type CreateOptions,
  type Fetched,
  type ListOptions,
  type PetPage,
  PetsApi,
} from './client.js';
export { ENVIRONMENTS, type Environment } from './environments.js';
export { AnimalStoreError, type ClientErrorCode, GoneError } from './errors.js';
export type { RetryOptions } from './retry.js';
