import { MemoryPetStore } from '../src/store/memory-pet-store.js';
import { petStoreSuite } from './store/pet-store-suite.js';

petStoreSuite('MemoryPetStore', async (options) => new MemoryPetStore(options));
