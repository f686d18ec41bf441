// What the in-process framework apps store and answer, as the spec gives it: the PetStatus
// values and a Pet, and for the apps whose framework validates nothing itself (Express, Koa) the
// NewPet rule written out by hand and the pet a NewPet makes.

export const STATUSES = ['available', 'pending', 'sold'];

export interface Pet {
  id: number;
  name: string;
  categoryId: number;
  status?: string;
}

const INT64_BOUND = 2 ** 63;

/** Why `body` is no NewPet, or undefined when it is one. */
export function newPetProblem(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return 'the body is a NewPet object';
  }
  const { name, categoryId, status } = body as Record<string, unknown>;
  if (typeof name !== 'string') return 'name is a string';
  if (
    typeof categoryId !== 'number' ||
    !Number.isInteger(categoryId) ||
    categoryId < -INT64_BOUND ||
    categoryId >= INT64_BOUND
  ) {
    return 'categoryId is an int64 integer';
  }
  if (status !== undefined && !STATUSES.includes(status as string)) {
    return `status is one of ${STATUSES.join(', ')}`;
  }
  return undefined;
}

/** The pet the NewPet `body` makes, with the next id, added to `pets`. */
export function storedPet(pets: Pet[], body: Omit<Pet, 'id'>): Pet {
  const { name, categoryId, status } = body;
  const pet = {
    id: pets.length + 1,
    name,
    categoryId,
    ...(status === undefined ? {} : { status }),
  };
  pets.push(pet);
  return pet;
}
