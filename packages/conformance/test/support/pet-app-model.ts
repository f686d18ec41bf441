// What the in-process framework apps store and answer, as the spec gives it: the PetStatus
// values and a Pet.

export const STATUSES = ['available', 'pending', 'sold'];

export interface Pet {
  id: number;
  name: string;
  categoryId: number;
  status?: string;
}
