(* The Animal Store pet API as an OCaml developer writes it from the spec with cohttp-lwt-unix's
   defaults: one callback that matches the method and the path's segments, Yojson.Safe for bodies,
   int_of_string_opt for integers, and an Error body for every answer that is one.

   Usage: API_KEY=... petapp  (listens on 127.0.0.1, port 0; prints "listening on PORT"; stops
   when its stdin closes, so that it never outlives the test that started it) *)

open Lwt.Infix
open Cohttp
open Cohttp_lwt_unix

type pet = { id : int; name : string; category_id : int; status : string option }

(* Oldest first, in an array that doubles: lists and reads go in creation order. *)
let pets : pet array ref = ref [||]

let count = ref 0
let statuses = [ "available"; "pending"; "sold" ]
let expected_authorization = ref ""

let answer ?(headers = Header.init ()) status json =
  let headers = Header.add headers "content-type" "application/json" in
  Server.respond_string ~headers ~status ~body:(Yojson.Safe.to_string json) ()

(* The spec's Error body. *)
let fail ?headers status code message =
  answer ?headers status
    (`Assoc
      [
        ("code", `String code);
        ("message", `String message);
        ("status", `Int (Code.code_of_status status));
      ])

let pet_json pet =
  `Assoc
    ([ ("id", `Int pet.id); ("name", `String pet.name); ("categoryId", `Int pet.category_id) ]
    @ match pet.status with Some status -> [ ("status", `String status) ] | None -> [])

(* Within [min, max], as int_of_string_opt reads an integer. *)
let integer_within text min max =
  match int_of_string_opt text with Some n when n >= min && n <= max -> Some n | _ -> None

let list_pets uri =
  let limit =
    match Uri.get_query_param uri "limit" with
    | None -> Some 20
    | Some text -> integer_within text 1 100
  in
  match (limit, Uri.get_query_param uri "status") with
  | None, _ -> fail `Bad_request "invalid_limit" "limit is an integer from 1 to 100"
  | _, Some status when not (List.mem status statuses) ->
      fail `Bad_request "invalid_status" "status is one of available, pending, sold"
  | Some limit, status ->
      let shown = ref [] in
      Array.iteri
        (fun i pet ->
          if i < !count && List.length !shown < limit then
            match status with
            | Some wanted when pet.status <> Some wanted -> ()
            | _ -> shown := pet_json pet :: !shown)
        !pets;
      answer `OK (`List (List.rev !shown))

let store name category_id status =
  if !count = Array.length !pets then
    pets :=
      Array.append !pets
        (Array.make (max 64 !count) { id = 0; name = ""; category_id = 0; status = None });
  let pet = { id = !count + 1; name; category_id; status } in
  !pets.(!count) <- pet;
  incr count;
  let headers = Header.init_with "location" (Printf.sprintf "/v1/pets/%d" pet.id) in
  answer ~headers `Created (pet_json pet)

let create_pet request body =
  Cohttp_lwt.Body.to_string body >>= fun text ->
  match Header.get_media_type (Request.headers request) with
  | Some "application/json" -> (
      match Yojson.Safe.from_string text with
      | exception Yojson.Json_error message ->
          fail `Bad_request "validation_failed" ("the body is no JSON: " ^ message)
      | json -> (
          let open Yojson.Safe.Util in
          match (member "name" json, member "categoryId" json, member "status" json) with
          | exception Type_error _ ->
              fail `Bad_request "validation_failed" "the body is a JSON object"
          | `String name, `Int category_id, `Null -> store name category_id None
          | `String name, `Int category_id, `String status when List.mem status statuses ->
              store name category_id (Some status)
          | `String _, `Int _, _ ->
              fail `Bad_request "validation_failed" "status is one of available, pending, sold"
          | `String _, _, _ ->
              fail `Bad_request "validation_failed" "categoryId is an integer, and required"
          | _ -> fail `Bad_request "validation_failed" "name is a string, and required"))
  | _ -> fail `Unsupported_media_type "unsupported_media_type" "the body is application/json"

(* getPet is deprecated: every answer says so, and names its successor. *)
let get_pet id =
  let headers =
    Header.of_list
      [
        ("deprecation", "@1767225600");
        ("sunset", "Thu, 05 Dec 2030 00:00:00 GMT");
        ("link", "</v1/pets>; rel=\"successor-version\"");
      ]
  in
  match int_of_string_opt id with
  | None -> fail ~headers `Bad_request "invalid_pet_id" "petId is an int64 integer"
  | Some id -> (
      match Array.find_opt (fun pet -> pet.id = id) (Array.sub !pets 0 !count) with
      | Some pet -> answer ~headers `OK (pet_json pet)
      | None -> fail ~headers `Not_found "not_found" "no such pet")

let callback _connection request body =
  let uri = Request.uri request in
  let authorized =
    Header.get (Request.headers request) "authorization" = Some !expected_authorization
  in
  match (Request.meth request, String.split_on_char '/' (Uri.path uri)) with
  | (`GET | `POST), [ ""; "v1"; "pets" ] | `GET, [ ""; "v1"; "pets"; _ ] when not authorized ->
      Cohttp_lwt.Body.drain_body body >>= fun () ->
      fail `Unauthorized "unauthorized" "send Authorization: Bearer <key>"
  | `GET, [ ""; "v1"; "pets" ] -> list_pets uri
  | `POST, [ ""; "v1"; "pets" ] -> create_pet request body
  | `GET, [ ""; "v1"; "pets"; id ] -> get_pet (Uri.pct_decode id)
  | _ ->
      Cohttp_lwt.Body.drain_body body >>= fun () ->
      fail `Not_found "not_found" "no such resource"

let rec until_stdin_closes () =
  Lwt_io.read_line_opt Lwt_io.stdin >>= function
  | None -> Lwt.return_unit
  | Some _ -> until_stdin_closes ()

let () =
  match Sys.getenv_opt "API_KEY" with
  | None ->
      prerr_endline "API_KEY is required";
      exit 2
  | Some key ->
      expected_authorization := "Bearer " ^ key;
      let socket = Lwt_unix.socket Unix.PF_INET Unix.SOCK_STREAM 0 in
      Lwt_main.run
        ( Lwt_unix.bind socket (Unix.ADDR_INET (Unix.inet_addr_loopback, 0)) >>= fun () ->
          Lwt_unix.listen socket 128;
          (match Lwt_unix.getsockname socket with
          | Unix.ADDR_INET (_, port) -> Printf.printf "listening on %d\n%!" port
          | Unix.ADDR_UNIX _ -> ());
          Lwt.pick
            [
              Server.create ~mode:(`TCP (`Socket socket)) (Server.make ~callback ());
              until_stdin_closes ();
            ] )
