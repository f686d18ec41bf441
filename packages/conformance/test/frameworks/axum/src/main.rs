//! The service as an axum developer writes it from the spec, with axum's and serde's defaults:
//! `Json`, `Query` and `Path` extractors over serde-derived types, a middleware for the key, and
//! rejections answered with an Error.
//!
//! Usage: API_KEY=... petapp  (listens on 127.0.0.1, port 0; prints "listening on PORT"; stops
//! when its stdin closes, so that it never outlives the test that started it)

use std::sync::{Arc, Mutex};

use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::extract::{Path, Query, Request, State};
use axum::http::{header, HeaderMap, HeaderName, HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use pet_model::{listed, stored, ListParams, NewPet, Pet, DEPRECATION};
use serde_json::json;

type Pets = Arc<Mutex<Vec<Pet>>>;

fn fail(status: StatusCode, code: &str, message: impl Into<String>) -> Response {
    let body = json!({ "code": code, "message": message.into(), "status": status.as_u16() });
    (status, Json(body)).into_response()
}

/// A rejection's own status, but 400 where axum would say 422: the spec's status for a bad value.
fn rejected(status: StatusCode, message: String) -> Response {
    match status {
        StatusCode::UNPROCESSABLE_ENTITY => {
            fail(StatusCode::BAD_REQUEST, "validation_failed", message)
        }
        status => fail(status, "bad_request", message),
    }
}

fn deprecated() -> HeaderMap {
    let mut headers = HeaderMap::new();
    for (name, value) in DEPRECATION {
        headers.insert(
            HeaderName::from_static(name),
            HeaderValue::from_static(value),
        );
    }
    headers
}

async fn authenticate(request: Request, next: Next) -> Response {
    let expected = format!("Bearer {}", std::env::var("API_KEY").unwrap());
    match request.headers().get(header::AUTHORIZATION) {
        Some(value) if value.as_bytes() == expected.as_bytes() => next.run(request).await,
        _ => fail(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "send Authorization: Bearer <key>",
        ),
    }
}

async fn list_pets(
    State(pets): State<Pets>,
    params: Result<Query<ListParams>, QueryRejection>,
) -> Response {
    let Query(params) = match params {
        Ok(params) => params,
        Err(rejection) => return rejected(rejection.status(), rejection.body_text()),
    };
    let pets = pets.lock().unwrap();
    match listed(&pets, &params) {
        Ok(page) => Json(page).into_response(),
        Err(message) => fail(StatusCode::BAD_REQUEST, "invalid_limit", message),
    }
}

async fn create_pet(
    State(pets): State<Pets>,
    body: Result<Json<NewPet>, JsonRejection>,
) -> Response {
    let Json(new_pet) = match body {
        Ok(body) => body,
        Err(rejection) => return rejected(rejection.status(), rejection.body_text()),
    };
    let pet = stored(&mut pets.lock().unwrap(), new_pet);
    let location = [(header::LOCATION, format!("/v1/pets/{}", pet.id))];
    (StatusCode::CREATED, location, Json(pet)).into_response()
}

async fn get_pet(State(pets): State<Pets>, pet_id: Result<Path<i64>, PathRejection>) -> Response {
    let Path(pet_id) = match pet_id {
        Ok(pet_id) => pet_id,
        Err(rejection) => return rejected(rejection.status(), rejection.body_text()),
    };
    let pets = pets.lock().unwrap();
    match pets.iter().find(|pet| pet.id == pet_id) {
        Some(pet) => (deprecated(), Json(pet.clone())).into_response(),
        None => (
            deprecated(),
            fail(
                StatusCode::NOT_FOUND,
                "not_found",
                format!("no pet {pet_id}"),
            ),
        )
            .into_response(),
    }
}

async fn not_found() -> Response {
    fail(StatusCode::NOT_FOUND, "not_found", "no such resource")
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let app = Router::new()
        .route("/v1/pets", get(list_pets).post(create_pet))
        .route("/v1/pets/{pet_id}", get(get_pet))
        .fallback(not_found)
        .layer(middleware::from_fn(authenticate))
        .with_state(Pets::default());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    std::thread::spawn(|| {
        std::io::copy(&mut std::io::stdin(), &mut std::io::sink()).ok();
        std::process::exit(0);
    });
    println!("listening on {}", listener.local_addr().unwrap().port());
    axum::serve(listener, app).await.unwrap();
}
