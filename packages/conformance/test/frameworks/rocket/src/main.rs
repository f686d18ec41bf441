//! The service as a Rocket developer writes it from the spec, with Rocket's and serde's defaults:
//! routes whose `Json` data guard, path parameter and `Option` query fields read the request
//! (the body's route declares `format = "json"`), a request guard for the key, and one default
//! catcher answering every error Rocket raises with an Error.
//!
//! Usage: API_KEY=... petapp  (listens on 127.0.0.1, port 0; prints "listening on PORT"; stops
//! when its stdin closes, so that it never outlives the test that started it)

use std::sync::Mutex;

use pet_model::{listed, stored, ListParams, NewPet, Pet, Status as PetStatus, DEPRECATION};
use rocket::fairing::AdHoc;
use rocket::http::{Header, Status};
use rocket::request::{self, FromRequest, Request};
use rocket::response::status::Created;
use rocket::serde::json::{json, Json, Value};
use rocket::{catch, catchers, get, launch, post, routes, FromFormField, Responder, State};

type Pets = Mutex<Vec<Pet>>;

/// Every failure's answer: its status, and an Error.
type Failure = (Status, Json<Value>);

fn fail(status: Status, code: &str, message: impl Into<String>) -> Failure {
    let body = json!({ "code": code, "message": message.into(), "status": status.code });
    (status, Json(body))
}

/// A request that carries the key: `Authorization: Bearer <key>`, else 401.
struct ApiKey;

#[rocket::async_trait]
impl<'r> FromRequest<'r> for ApiKey {
    type Error = ();

    async fn from_request(request: &'r Request<'_>) -> request::Outcome<Self, ()> {
        let expected = format!("Bearer {}", std::env::var("API_KEY").unwrap());
        match request.headers().get_one("Authorization") {
            Some(value) if value == expected => request::Outcome::Success(ApiKey),
            _ => request::Outcome::Error((Status::Unauthorized, ())),
        }
    }
}

/// The status filter as Rocket's forms read a field of an enumeration.
#[derive(FromFormField)]
enum StatusFilter {
    Available,
    Pending,
    Sold,
}

impl From<StatusFilter> for PetStatus {
    fn from(filter: StatusFilter) -> Self {
        match filter {
            StatusFilter::Available => PetStatus::Available,
            StatusFilter::Pending => PetStatus::Pending,
            StatusFilter::Sold => PetStatus::Sold,
        }
    }
}

/// getPet's answer, with the headers of its deprecation.
#[derive(Responder)]
struct Deprecated {
    inner: Result<Json<Pet>, Failure>,
    deprecation: Header<'static>,
    sunset: Header<'static>,
    link: Header<'static>,
}

#[get("/pets?<limit>&<status>")]
fn list_pets(
    _key: ApiKey,
    pets: &State<Pets>,
    limit: Option<i64>,
    status: Option<StatusFilter>,
) -> Result<Json<Vec<Pet>>, Failure> {
    let params = ListParams {
        limit,
        status: status.map(PetStatus::from),
    };
    let pets = pets.lock().unwrap();
    match listed(&pets, &params) {
        Ok(page) => Ok(Json(page.into_iter().cloned().collect())),
        Err(message) => Err(fail(Status::BadRequest, "invalid_limit", message)),
    }
}

#[post("/pets", format = "json", data = "<new_pet>")]
fn create_pet(_key: ApiKey, pets: &State<Pets>, new_pet: Json<NewPet>) -> Created<Json<Pet>> {
    let pet = stored(&mut pets.lock().unwrap(), new_pet.into_inner());
    Created::new(format!("/v1/pets/{}", pet.id)).body(Json(pet))
}

#[get("/pets/<pet_id>")]
fn get_pet(_key: ApiKey, pets: &State<Pets>, pet_id: i64) -> Deprecated {
    let pets = pets.lock().unwrap();
    let inner = match pets.iter().find(|pet| pet.id == pet_id) {
        Some(pet) => Ok(Json(pet.clone())),
        None => Err(fail(
            Status::NotFound,
            "not_found",
            format!("no pet {pet_id}"),
        )),
    };
    let [deprecation, sunset, link] = DEPRECATION.map(|(name, value)| Header::new(name, value));
    Deprecated {
        inner,
        deprecation,
        sunset,
        link,
    }
}

/// Every error Rocket raises (a guard's, a route's forward, no route at all), with an Error: 400
/// where Rocket says 422, the spec's status for a value that is invalid.
#[catch(default)]
fn caught(status: Status, _request: &Request) -> Failure {
    let status = match status {
        Status::UnprocessableEntity => Status::BadRequest,
        status => status,
    };
    let code = status.reason_lossy().to_lowercase().replace(' ', "_");
    let message = match status {
        Status::Unauthorized => "send Authorization: Bearer <key>",
        Status::NotFound => "no such resource",
        status => status.reason_lossy(),
    };
    fail(status, &code, message)
}

#[launch]
fn rocket() -> _ {
    // Port 0 and no log: the port the listener got is printed, alone, once it listens.
    let config = rocket::Config::figment()
        .merge(("address", "127.0.0.1"))
        .merge(("port", 0))
        .merge(("log_level", rocket::config::LogLevel::Off));
    rocket::custom(config)
        .manage(Pets::default())
        .mount("/v1", routes![list_pets, create_pet, get_pet])
        .register("/", catchers![caught])
        .attach(AdHoc::on_liftoff("listening on", |rocket| {
            Box::pin(async move {
                std::thread::spawn(|| {
                    std::io::copy(&mut std::io::stdin(), &mut std::io::sink()).ok();
                    std::process::exit(0);
                });
                println!("listening on {}", rocket.config().port);
            })
        }))
}
