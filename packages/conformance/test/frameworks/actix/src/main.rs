//! The service as an actix-web developer writes it from the spec, with actix-web's and serde's
//! defaults: `web::Json`, `web::Query` and `web::Path` extractors over serde-derived types, a
//! middleware for the key, error handlers of the extractors' configs answering with an Error, and
//! a default service for what no route takes.
//!
//! Usage: API_KEY=... petapp  (listens on 127.0.0.1, port 0; prints "listening on PORT"; stops
//! when its stdin closes, so that it never outlives the test that started it)

use std::sync::Mutex;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::{header, StatusCode};
use actix_web::middleware::{from_fn, Next};
use actix_web::{error, web, App, HttpResponse, HttpServer, ResponseError};
use pet_model::{listed, stored, ListParams, NewPet, Pet, DEPRECATION};
use serde_json::json;

type Pets = web::Data<Mutex<Vec<Pet>>>;

fn fail(status: StatusCode, code: &str, message: impl Into<String>) -> HttpResponse {
    HttpResponse::build(status)
        .json(json!({ "code": code, "message": message.into(), "status": status.as_u16() }))
}

/// An extractor's error, answered with an Error of its own status (400, 413, 415, ...).
fn rejected(err: impl ResponseError + 'static) -> error::Error {
    let answer = fail(err.status_code(), "bad_request", err.to_string());
    error::InternalError::from_response(err, answer).into()
}

async fn authenticate(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, error::Error> {
    let expected = format!("Bearer {}", std::env::var("API_KEY").unwrap());
    match request.headers().get(header::AUTHORIZATION) {
        Some(value) if value.as_bytes() == expected.as_bytes() => {
            Ok(next.call(request).await?.map_into_left_body())
        }
        _ => {
            let answer = fail(
                StatusCode::UNAUTHORIZED,
                "unauthorized",
                "send Authorization: Bearer <key>",
            );
            Ok(request.into_response(answer).map_into_right_body())
        }
    }
}

async fn list_pets(pets: Pets, params: web::Query<ListParams>) -> HttpResponse {
    let pets = pets.lock().unwrap();
    match listed(&pets, &params) {
        Ok(page) => HttpResponse::Ok().json(page),
        Err(message) => fail(StatusCode::BAD_REQUEST, "invalid_limit", message),
    }
}

async fn create_pet(pets: Pets, body: web::Json<NewPet>) -> HttpResponse {
    let pet = stored(&mut pets.lock().unwrap(), body.into_inner());
    HttpResponse::Created()
        .insert_header((header::LOCATION, format!("/v1/pets/{}", pet.id)))
        .json(pet)
}

async fn get_pet(pets: Pets, pet_id: web::Path<i64>) -> HttpResponse {
    let pet_id = pet_id.into_inner();
    let pets = pets.lock().unwrap();
    let mut answer = match pets.iter().find(|pet| pet.id == pet_id) {
        Some(pet) => HttpResponse::Ok().json(pet),
        None => fail(
            StatusCode::NOT_FOUND,
            "not_found",
            format!("no pet {pet_id}"),
        ),
    };
    for (name, value) in DEPRECATION {
        answer.headers_mut().insert(
            header::HeaderName::from_static(name),
            header::HeaderValue::from_static(value),
        );
    }
    answer
}

async fn not_found() -> HttpResponse {
    fail(StatusCode::NOT_FOUND, "not_found", "no such resource")
}

#[actix_web::main]
async fn main() -> std::io::Result<()> {
    let pets: Pets = web::Data::new(Mutex::new(Vec::new()));
    let server = HttpServer::new(move || {
        App::new()
            .app_data(pets.clone())
            .app_data(web::JsonConfig::default().error_handler(|err, _| rejected(err)))
            .app_data(web::QueryConfig::default().error_handler(|err, _| rejected(err)))
            .app_data(web::PathConfig::default().error_handler(|err, _| rejected(err)))
            .wrap(from_fn(authenticate))
            .service(
                web::resource("/v1/pets")
                    .route(web::get().to(list_pets))
                    .route(web::post().to(create_pet)),
            )
            .route("/v1/pets/{pet_id}", web::get().to(get_pet))
            .default_service(web::to(not_found))
    })
    .workers(1)
    .bind(("127.0.0.1", 0))?;
    let port = server.addrs()[0].port();
    std::thread::spawn(|| {
        std::io::copy(&mut std::io::stdin(), &mut std::io::sink()).ok();
        std::process::exit(0);
    });
    println!("listening on {port}");
    server.run().await
}
