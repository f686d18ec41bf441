export * from './limits.js';
export * from './openapi.js';
export * from './query.js';
export * from './schemas/error.js';
export * from './schemas/params.js';
export * from './schemas/pet.js';
export * from './validate.js';
export * from './versioning.js';
