// The Animal Store pet API as a C# developer writes it from the spec with HttpListener (Mono's)
// and Json.NET's defaults: one handler that matches the method and the path's segments,
// JsonConvert.DeserializeObject into a NewPet class for bodies, long.TryParse for integers, and an
// Error body for every answer that is one.
//
// Usage: API_KEY=... mono petapp.exe  (listens on 127.0.0.1, on a port it finds free; prints
// "listening on PORT"; stops when its stdin closes, so that it never outlives the test that
// started it)
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Threading;
using Newtonsoft.Json;
using Newtonsoft.Json.Serialization;

class NewPet
{
    public string Name { get; set; }
    public long? CategoryId { get; set; }
    public string Status { get; set; }
}

class Pet
{
    public long Id { get; set; }
    public string Name { get; set; }
    public long CategoryId { get; set; }
    public string Status { get; set; }
}

class ApiError
{
    public string Code { get; set; }
    public string Message { get; set; }
    public int Status { get; set; }
}

static class App
{
    static readonly string[] Statuses = { "available", "pending", "sold" };
    static readonly List<Pet> Pets = new List<Pet>(); // oldest first: lists go in creation order
    static readonly object PetsLock = new object();
    static string expectedAuthorization;

    // camelCase names, and no status member when a pet has none.
    static readonly JsonSerializerSettings Output = new JsonSerializerSettings
    {
        ContractResolver = new CamelCasePropertyNamesContractResolver(),
        NullValueHandling = NullValueHandling.Ignore,
    };

    static void Answer(HttpListenerResponse response, int status, object body)
    {
        var bytes = Encoding.UTF8.GetBytes(JsonConvert.SerializeObject(body, Output));
        response.StatusCode = status;
        response.ContentType = "application/json";
        response.ContentLength64 = bytes.Length;
        response.OutputStream.Write(bytes, 0, bytes.Length);
        response.Close();
    }

    // The spec's Error body.
    static void Fail(HttpListenerResponse response, int status, string code, string message)
    {
        Answer(response, status, new ApiError { Code = code, Message = message, Status = status });
    }

    static long? IntegerWithin(string text, long min, long max)
    {
        long value;
        if (text == null || !long.TryParse(text, out value)) return null;
        return value < min || value > max ? (long?)null : value;
    }

    static void ListPets(HttpListenerRequest request, HttpListenerResponse response)
    {
        long limit = 20;
        var givenLimit = request.QueryString["limit"];
        if (givenLimit != null)
        {
            var parsed = IntegerWithin(givenLimit, 1, 100);
            if (parsed == null)
            {
                Fail(response, 400, "invalid_limit", "limit is an integer from 1 to 100");
                return;
            }
            limit = parsed.Value;
        }
        var status = request.QueryString["status"];
        if (status != null && !Statuses.Contains(status))
        {
            Fail(response, 400, "invalid_status", "status is one of available, pending, sold");
            return;
        }
        List<Pet> shown;
        lock (PetsLock)
        {
            shown = Pets.Where(p => status == null || p.Status == status).Take((int)limit).ToList();
        }
        Answer(response, 200, shown);
    }

    static void CreatePet(HttpListenerRequest request, string text, HttpListenerResponse response)
    {
        var mediaType = (request.ContentType ?? "").Split(';')[0].Trim().ToLowerInvariant();
        if (mediaType != "application/json")
        {
            Fail(response, 415, "unsupported_media_type", "the body is application/json");
            return;
        }
        NewPet sent;
        try
        {
            sent = JsonConvert.DeserializeObject<NewPet>(text);
        }
        catch (JsonException error)
        {
            Fail(response, 400, "validation_failed", "the body is no NewPet: " + error.Message);
            return;
        }
        string problem = null;
        if (sent == null || sent.Name == null) problem = "name is a string, and required";
        else if (sent.CategoryId == null) problem = "categoryId is an integer, and required";
        else if (sent.Status != null && !Statuses.Contains(sent.Status))
            problem = "status is one of available, pending, sold";
        if (problem != null)
        {
            Fail(response, 400, "validation_failed", problem);
            return;
        }
        Pet pet;
        lock (PetsLock)
        {
            pet = new Pet
            {
                Id = Pets.Count + 1,
                Name = sent.Name,
                CategoryId = sent.CategoryId.Value,
                Status = sent.Status,
            };
            Pets.Add(pet);
        }
        response.AddHeader("Location", "/v1/pets/" + pet.Id);
        Answer(response, 201, pet);
    }

    // getPet is deprecated: every answer says so, and names its successor.
    static void GetPet(string petId, HttpListenerResponse response)
    {
        response.AddHeader("Deprecation", "@1767225600");
        response.AddHeader("Sunset", "Thu, 05 Dec 2030 00:00:00 GMT");
        response.AddHeader("Link", "</v1/pets>; rel=\"successor-version\"");
        var id = IntegerWithin(petId, long.MinValue, long.MaxValue);
        if (id == null)
        {
            Fail(response, 400, "invalid_pet_id", "petId is an int64 integer");
            return;
        }
        Pet pet;
        lock (PetsLock)
        {
            pet = Pets.FirstOrDefault(p => p.Id == id.Value);
        }
        if (pet == null) Fail(response, 404, "not_found", "no such pet");
        else Answer(response, 200, pet);
    }

    static void Handle(HttpListenerContext context)
    {
        var request = context.Request;
        var response = context.Response;
        try
        {
            // Every body is read before the answer: Mono's HttpListener reads what is left of a
            // body that arrives after the answer as the connection's next request.
            string text;
            using (var reader = new StreamReader(request.InputStream, request.ContentEncoding))
            {
                text = reader.ReadToEnd();
            }
            var segments = request.Url.AbsolutePath.Split('/');
            var method = request.HttpMethod;
            var isPets = segments.Length == 3 && segments[1] == "v1" && segments[2] == "pets";
            var isPet = segments.Length == 4 && segments[1] == "v1" && segments[2] == "pets";
            if (!((isPets && (method == "GET" || method == "POST")) || (isPet && method == "GET")))
            {
                Fail(response, 404, "not_found", "no such resource");
            }
            else if (request.Headers["Authorization"] != expectedAuthorization)
            {
                Fail(response, 401, "unauthorized", "send Authorization: Bearer <key>");
            }
            else if (isPet) GetPet(segments[3], response);
            else if (method == "GET") ListPets(request, response);
            else CreatePet(request, text, response);
        }
        catch (Exception error)
        {
            Console.Error.WriteLine(error);
            Fail(response, 500, "internal", "the request failed");
        }
    }

    static int FreePort()
    {
        var probe = new TcpListener(IPAddress.Loopback, 0);
        probe.Start();
        var port = ((IPEndPoint)probe.LocalEndpoint).Port;
        probe.Stop();
        return port;
    }

    static int Main()
    {
        var key = Environment.GetEnvironmentVariable("API_KEY");
        if (key == null)
        {
            Console.Error.WriteLine("API_KEY is required");
            return 2;
        }
        expectedAuthorization = "Bearer " + key;
        // HttpListener takes no port 0: it listens on one a probe found free.
        var port = FreePort();
        var listener = new HttpListener();
        listener.Prefixes.Add("http://127.0.0.1:" + port + "/");
        listener.Start();
        var serving = new Thread(() =>
        {
            while (listener.IsListening)
            {
                HttpListenerContext context;
                try { context = listener.GetContext(); }
                catch (HttpListenerException) { return; }
                catch (ObjectDisposedException) { return; }
                ThreadPool.QueueUserWorkItem(_ => Handle(context));
            }
        }) { IsBackground = true };
        serving.Start();
        Console.WriteLine("listening on " + port);
        Console.Out.Flush();

        // Stops when stdin closes.
        while (Console.In.ReadLine() != null) { }
        listener.Stop();
        return 0;
    }
}
