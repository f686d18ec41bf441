//! The spec's types as serde reads and writes them, its list and create rules, and getPet's
//! deprecation headers, for the Rust apps (axum, actix-web, Rocket): how each framework reads a
//! request and writes the answer is its own.

use serde::{Deserialize, Serialize};

/// The headers of every getPet answer (the spec's deprecation of the operation), names in lower
/// case as HTTP/2 and `from_static` want them.
pub const DEPRECATION: [(&str, &str); 3] = [
    ("deprecation", "@1767225600"),
    ("sunset", "Thu, 05 Dec 2030 00:00:00 GMT"),
    ("link", "</v1/pets>; rel=\"successor-version\""),
];

#[derive(Clone, Copy, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Available,
    Pending,
    Sold,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NewPet {
    pub name: String,
    pub category_id: i64,
    pub status: Option<Status>,
}

#[derive(Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Pet {
    pub id: i64,
    pub name: String,
    pub category_id: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<Status>,
}

#[derive(Deserialize)]
pub struct ListParams {
    pub limit: Option<i64>,
    pub status: Option<Status>,
}

/// The page listPets answers `params` with, or why it answers 400 instead.
pub fn listed<'a>(pets: &'a [Pet], params: &ListParams) -> Result<Vec<&'a Pet>, &'static str> {
    let limit = params.limit.unwrap_or(20);
    if !(1..=100).contains(&limit) {
        return Err("limit is an integer from 1 to 100");
    }
    Ok(pets
        .iter()
        .filter(|pet| params.status.is_none() || pet.status == params.status)
        .take(limit as usize)
        .collect())
}

/// The pet `new_pet` makes, with the next id, added to `pets`.
pub fn stored(pets: &mut Vec<Pet>, new_pet: NewPet) -> Pet {
    let pet = Pet {
        id: pets.len() as i64 + 1,
        name: new_pet.name,
        category_id: new_pet.category_id,
        status: new_pet.status,
    };
    pets.push(pet.clone());
    pet
}
