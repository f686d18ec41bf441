//! The scenario with a client made by progenitor from the OpenAPI 3.0 document, as a client
//! developer writes it. Run by test/progenitor.test.ts with the generated crate beside it and
//! the API's address and key in ANIMAL_STORE_BASE_URL and ANIMAL_STORE_API_KEY. Prints what it
//! saw as JSON.

use animal_store_client::types::{ErrorBody, ErrorCode, NewPet, PetStatus};
use animal_store_client::{Client, Error, ResponseValue};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::num::NonZeroU64;

/// A positive integer, as the generated types take ids, categories and limits.
fn positive(n: u64) -> NonZeroU64 {
    NonZeroU64::new(n).expect("positive")
}

/// A client sending `key` as the bearer token on every request.
fn client(base: &str, key: &str) -> Client {
    let mut headers = reqwest::header::HeaderMap::new();
    let value = format!("Bearer {key}").parse().expect("a header value");
    headers.insert(reqwest::header::AUTHORIZATION, value);
    let http = reqwest::Client::builder().default_headers(headers).build().expect("a client");
    Client::new_with_client(base, http)
}

/// What a client does about an error, by its code: a match on the generated enum.
fn explain(code: &ErrorCode) -> &'static str {
    match code {
        ErrorCode::ValidationFailed | ErrorCode::MalformedJson => "fix the request",
        ErrorCode::Unauthorized => "check the key",
        ErrorCode::NotFound | ErrorCode::Gone => "nothing there",
        ErrorCode::RateLimited | ErrorCode::ServiceUnavailable | ErrorCode::Conflict => {
            "retry later"
        }
        _ => "report it",
    }
}

/// The status and decoded Error body of a failed call.
fn failure<T: std::fmt::Debug>(result: Result<ResponseValue<T>, Error<ErrorBody>>) -> Value {
    match result {
        Err(Error::ErrorResponse(answer)) => {
            let status = answer.status().as_u16();
            let body = answer.into_inner();
            assert!(!explain(&body.code).is_empty());
            let fields: BTreeSet<String> = body.details.iter().map(|d| d.path.clone()).collect();
            json!({ "status": status, "code": body.code.to_string(), "fields": fields })
        }
        other => panic!("expected a decoded Error body, got {other:?}"),
    }
}

fn header(answer: &ResponseValue<impl Sized>, name: &str) -> Option<String> {
    answer.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_owned)
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let base = std::env::var("ANIMAL_STORE_BASE_URL").expect("ANIMAL_STORE_BASE_URL");
    let api = client(&base, &std::env::var("ANIMAL_STORE_API_KEY").expect("ANIMAL_STORE_API_KEY"));
    let new_pet = |name: &str| NewPet {
        name: name.parse().expect("a valid name"),
        category_id: positive(3),
        status: Some(PetStatus::Pending),
    };
    let key = format!("rust-{}", std::process::id());
    let created = api.create_pet(Some(&key.parse().expect("a key")), &new_pet("Rex")).await.expect("created");
    let retried = api.create_pet(Some(&key.parse().expect("a key")), &new_pet("Rex")).await.expect("replayed");
    for name in ["Max", "Ida"] {
        api.create_pet(None, &new_pet(name)).await.expect("created");
    }

    let mut pages: Vec<Vec<String>> = Vec::new();
    // From Rex on: after the id before it, so that only the pets made here show in a store
    // others share too (ids, and so after, start at 1: none before the first).
    let mut after = NonZeroU64::new(created.id.get() - 1);
    loop {
        let page = api
            .list_pets(after, Some(positive(2)), Some(PetStatus::Pending))
            .await
            .expect("a page");
        // The next page: the same query, after the id in the declared Next-After header.
        let next = header(&page, "Next-After").map(|v| v.parse::<NonZeroU64>().expect("an id"));
        let pets = page.into_inner();
        assert!(pets.iter().all(|pet| pet.status == PetStatus::Pending));
        pages.push(pets.iter().map(|pet| pet.name.to_string()).collect());
        match next {
            Some(id) => after = Some(id),
            None => break,
        }
    }

    let id = created.id;
    let fetched = api.get_pet(id).await.expect("fetched");
    let stranger = client(&base, "wrong");
    let invalid_name = serde_json::from_value::<NewPet>(json!({ "name": "", "categoryId": 1 }));
    let invalid = match invalid_name {
        // The generated type refuses an empty name before sending: send the raw body instead.
        Err(_) => raw_create(&base, &std::env::var("ANIMAL_STORE_API_KEY").unwrap()).await,
        Ok(pet) => failure(api.create_pet(None, &pet).await),
    };
    println!(
        "{}",
        json!({
            "created": { "status": created.status().as_u16(), "pet": created.into_inner() },
            "retried": {
                "sameId": retried.id == id,
                "replayed": header(&retried, "Idempotency-Replayed"),
            },
            "pages": pages,
            "fetched": {
                "name": fetched.name.to_string(),
                "deprecation": header(&fetched, "Deprecation"),
                "sunset": header(&fetched, "Sunset"),
            },
            "invalid": invalid,
            "unauthorized": failure(stranger.list_pets(None, None, None).await),
            "missing": failure(api.get_pet(positive(1 << 40)).await),
        })
    );
}

/// A create with an empty name, which the generated `NewPet` cannot hold, through the generated
/// Error body type.
async fn raw_create(base: &str, key: &str) -> Value {
    let answer = reqwest::Client::new()
        .post(format!("{base}/pets"))
        .bearer_auth(key)
        .json(&json!({ "name": "", "categoryId": 1 }))
        .send()
        .await
        .expect("an answer");
    let status = answer.status().as_u16();
    let body: ErrorBody = answer.json().await.expect("an Error body");
    let fields: BTreeSet<String> = body.details.iter().map(|d| d.path.clone()).collect();
    json!({ "status": status, "code": body.code.to_string(), "fields": fields })
}
