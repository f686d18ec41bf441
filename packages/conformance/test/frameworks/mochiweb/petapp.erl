%% The Animal Store pet API as an Erlang developer writes it from the spec with MochiWeb's
%% defaults: one loop that matches the method and the path's segments (in a try, as MochiWeb's
%% project skeleton has it), mochijson2 for bodies, list_to_integer for integers, and an Error
%% body for every answer that is one.
%%
%% Usage: API_KEY=... erl -noshell -pa DIR -s petapp main  (listens on 127.0.0.1, port 0; prints
%% "listening on PORT"; stops when its stdin closes, so that it never outlives the test that
%% started it)
-module(petapp).
-export([main/0, loop/1]).

-define(STATUSES, [<<"available">>, <<"pending">>, <<"sold">>]).
-define(STATUS_RULE, <<"status is one of available, pending, sold">>).
%% The spec sets no size for a body. Beyond recv_body's default of 1 MiB, MochiWeb ends the request
%% with the body unread, and the connection is reset while the client is still sending it.
-define(MAX_BODY, 16 * 1024 * 1024).

main() ->
    case os:getenv("API_KEY") of
        false ->
            io:format(standard_error, "API_KEY is required~n", []),
            halt(2);
        Key ->
            persistent_term:put(petapp_authorization, "Bearer " ++ Key),
            % Pets, oldest first by id: lists and reads go in creation order.
            ets:new(pets, [ordered_set, public, named_table]),
            ets:insert(pets, {count, 0}),
            {ok, _} = mochiweb_http:start_link([
                {name, petapp}, {ip, {127, 0, 0, 1}}, {port, 0}, {loop, fun ?MODULE:loop/1}
            ]),
            io:format("listening on ~b~n", [mochiweb_socket_server:get(petapp, port)]),
            until_stdin_closes(),
            halt(0)
    end.

until_stdin_closes() ->
    case io:get_line('') of
        eof -> ok;
        {error, _} -> ok;
        _ -> until_stdin_closes()
    end.

loop(Req) ->
    Path = string:split(mochiweb_request:get(path, Req), "/", all),
    try
        route(mochiweb_request:get(method, Req), Path, Req)
    catch
        Type:What:Trace ->
            logger:error("web request failed: ~p", [{Path, Type, What, Trace}]),
            fail(Req, 500, <<"internal">>, <<"the request failed">>)
    end.

route(Method, ["", "v1", "pets" | Rest], Req) when
    (Rest =:= [] andalso (Method =:= 'GET' orelse Method =:= 'POST')) orelse
        (length(Rest) =:= 1 andalso Method =:= 'GET')
->
    case mochiweb_request:get_header_value("authorization", Req) =:= authorization() of
        false -> fail(Req, 401, <<"unauthorized">>, <<"send Authorization: Bearer <key>">>);
        true when Rest =:= [], Method =:= 'GET' -> list_pets(Req);
        true when Rest =:= [] -> create_pet(Req);
        true -> get_pet(Req, hd(Rest))
    end;
route(_, _, Req) ->
    fail(Req, 404, <<"not_found">>, <<"no such resource">>).

authorization() -> persistent_term:get(petapp_authorization).

answer(Req, Status, Headers, Json) ->
    mochiweb_request:respond(
        {Status, [{"Content-Type", "application/json"} | Headers], mochijson2:encode(Json)}, Req
    ).

%% The spec's Error body.
fail(Req, Status, Code, Message) -> fail(Req, Status, [], Code, Message).
fail(Req, Status, Headers, Code, Message) ->
    answer(Req, Status, Headers, {struct, [{code, Code}, {message, Message}, {status, Status}]}).

pet_json({Id, Name, CategoryId, Status}) ->
    {struct,
        [{id, Id}, {name, Name}, {categoryId, CategoryId}] ++
            [{status, Status} || Status =/= undefined]}.

%% An integer within [Min, Max], as list_to_integer reads one; error otherwise.
integer_within(Text, Min, Max) ->
    try list_to_integer(Text) of
        N when N >= Min, N =< Max -> N;
        _ -> error
    catch
        error:badarg -> error
    end.

list_pets(Req) ->
    Query = mochiweb_request:parse_qs(Req),
    Limit =
        case proplists:get_value("limit", Query) of
            undefined -> 20;
            Text -> integer_within(Text, 1, 100)
        end,
    Status =
        case proplists:get_value("status", Query) of
            undefined -> undefined;
            Given -> list_to_binary(Given)
        end,
    if
        Limit =:= error ->
            fail(Req, 400, <<"invalid_limit">>, <<"limit is an integer from 1 to 100">>);
        Status =/= undefined ->
            case lists:member(Status, ?STATUSES) of
                true -> list_with(Req, Limit, Status);
                false -> fail(Req, 400, <<"invalid_status">>, ?STATUS_RULE)
            end;
        true ->
            list_with(Req, Limit, undefined)
    end.

list_with(Req, Limit, Status) ->
    Pets = [
        Pet
     || {_, Pet = {_, _, _, PetStatus}} <- ets:tab2list(pets),
        Status =:= undefined orelse PetStatus =:= Status
    ],
    answer(Req, 200, [], [pet_json(Pet) || Pet <- lists:sublist(Pets, Limit)]).

create_pet(Req) ->
    case mochiweb_request:get_primary_header_value("content-type", Req) of
        "application/json" ->
            try mochijson2:decode(mochiweb_request:recv_body(?MAX_BODY, Req)) of
                {struct, Members} -> create_from(Req, Members);
                _ -> fail(Req, 400, <<"validation_failed">>, <<"the body is a JSON object">>)
            catch
                _:_ -> fail(Req, 400, <<"validation_failed">>, <<"the body is no JSON">>)
            end;
        _ ->
            fail(Req, 415, <<"unsupported_media_type">>, <<"the body is application/json">>)
    end.

create_from(Req, Members) ->
    Name = proplists:get_value(<<"name">>, Members),
    CategoryId = proplists:get_value(<<"categoryId">>, Members),
    Status = proplists:get_value(<<"status">>, Members),
    if
        not is_binary(Name) ->
            fail(Req, 400, <<"validation_failed">>, <<"name is a string, and required">>);
        not is_integer(CategoryId) ->
            fail(Req, 400, <<"validation_failed">>, <<"categoryId is an integer, and required">>);
        Status =/= undefined, not is_binary(Status) ->
            fail(Req, 400, <<"validation_failed">>, ?STATUS_RULE);
        true ->
            case Status =:= undefined orelse lists:member(Status, ?STATUSES) of
                false ->
                    fail(Req, 400, <<"validation_failed">>, ?STATUS_RULE);
                true ->
                    Id = ets:update_counter(pets, count, 1),
                    Pet = {Id, Name, CategoryId, Status},
                    ets:insert(pets, {{pet, Id}, Pet}),
                    Location = "/v1/pets/" ++ integer_to_list(Id),
                    answer(Req, 201, [{"Location", Location}], pet_json(Pet))
            end
    end.

%% getPet is deprecated: every answer says so, and names its successor.
get_pet(Req, Text) ->
    Headers = [
        {"Deprecation", "@1767225600"},
        {"Sunset", "Thu, 05 Dec 2030 00:00:00 GMT"},
        {"Link", "</v1/pets>; rel=\"successor-version\""}
    ],
    case integer_within(Text, -(1 bsl 63), (1 bsl 63) - 1) of
        error ->
            fail(Req, 400, Headers, <<"invalid_pet_id">>, <<"petId is an int64 integer">>);
        Id ->
            case ets:lookup(pets, {pet, Id}) of
                [{_, Pet}] -> answer(Req, 200, Headers, pet_json(Pet));
                [] -> fail(Req, 404, Headers, <<"not_found">>, <<"no such pet">>)
            end
    end.
