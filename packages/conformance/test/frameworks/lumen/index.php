<?php
// The service as a Lumen developer writes it from the spec, with Lumen's own defaults: a middleware
// that compares $request->bearerToken() with the key, a controller that validates with
// $this->validate() and Laravel's rules, JSON answers, and an exception handler that answers every
// exception with an Error. Debian's Lumen 8, on PHP's built-in server (../serve_on_php.sh); pets
// are kept in the JSON file PETS_FILE names, as PHP keeps nothing between requests.

require_once 'Laravel/Lumen/autoload.php';
require_once __DIR__ . '/../pet_file.php';

use Illuminate\Http\Request;
use Illuminate\Validation\ValidationException;
use Laravel\Lumen\Application;
use Laravel\Lumen\Exceptions\Handler;
use Laravel\Lumen\Routing\Controller;
use Symfony\Component\HttpKernel\Exception\HttpExceptionInterface;

const STATUSES = 'available,pending,sold';

function fail(int $status, string $code, string $message)
{
    return response()->json(['code' => $code, 'message' => $message, 'status' => $status], $status);
}

class RequireKey
{
    public function handle(Request $request, Closure $next)
    {
        if ($request->bearerToken() !== getenv('API_KEY')) {
            return fail(401, 'unauthorized', 'send Authorization: Bearer <key>');
        }
        return $next($request);
    }
}

class ErrorAnswers extends Handler
{
    public function render($request, Throwable $e)
    {
        if ($e instanceof ValidationException) {
            return fail($e->status, 'validation_failed', $e->getMessage());
        }
        if ($e instanceof HttpExceptionInterface) {
            $status = $e->getStatusCode();
            return fail($status, 'http_error', $e->getMessage() ?: 'no such route');
        }
        return fail(500, 'internal', 'internal error');
    }
}

class PetStore
{
    /** Runs $change on the stored pets under a lock (../pet_file.php); returns what it returns. */
    public static function with(callable $change)
    {
        return \with_pets(getenv('PETS_FILE'), $change);
    }
}

class PetController extends Controller
{
    public function list(Request $request)
    {
        $this->validate($request, [
            'limit' => 'integer|min:1|max:100',
            'status' => 'in:' . STATUSES,
        ]);
        $limit = (int) $request->query('limit', 20);
        $status = $request->query('status');
        $pets = PetStore::with(fn ($pets) => $pets);
        $listed = array_filter($pets, fn ($pet) => $status === null || ($pet['status'] ?? null) === $status);
        return response()->json(array_slice(array_values($listed), 0, $limit));
    }

    public function create(Request $request)
    {
        $this->validate($request, [
            'name' => 'required|string',
            'categoryId' => 'required|integer',
            'status' => 'in:' . STATUSES,
        ]);
        $pet = PetStore::with(function (&$pets) use ($request) {
            $pet = ['id' => count($pets) + 1] + $request->only(['name', 'categoryId', 'status']);
            $pets[] = $pet;
            return $pet;
        });
        return response()->json($pet, 201, ['Location' => "/v1/pets/{$pet['id']}"]);
    }

    public function get(string $petId)
    {
        $headers = [
            'Deprecation' => '@1767225600',
            'Sunset' => 'Thu, 05 Dec 2030 00:00:00 GMT',
            'Link' => '</v1/pets>; rel="successor-version"',
        ];
        $pets = PetStore::with(fn ($pets) => $pets);
        foreach ($pets as $pet) {
            if ($pet['id'] === (int) $petId) {
                return response()->json($pet, 200, $headers);
            }
        }
        return fail(404, 'not_found', "no pet $petId")->withHeaders($headers);
    }
}

$app = new Application(__DIR__);
// What Lumen writes (its storage/) goes beside the pets, out of this folder.
$app->useStoragePath(dirname(getenv('PETS_FILE')) . '/lumen-storage');
// Debian's Lumen ships no config/logging.php: the log goes to stderr, and the deprecation notices
// PHP 8.2 raises in Laravel 8's code go nowhere (else every request writes them to a file).
$app->make('config')->set('logging', [
    'default' => 'stderr',
    'channels' => [
        'stderr' => [
            'driver' => 'monolog',
            'handler' => Monolog\Handler\StreamHandler::class,
            'with' => ['stream' => 'php://stderr'],
        ],
        'deprecations' => ['driver' => 'monolog', 'handler' => Monolog\Handler\NullHandler::class],
    ],
]);
$app->singleton(Illuminate\Contracts\Debug\ExceptionHandler::class, ErrorAnswers::class);
$app->routeMiddleware(['key' => RequireKey::class]);
$app->router->group(['prefix' => 'v1', 'middleware' => 'key'], function ($router) {
    $router->get('pets', 'PetController@list');
    $router->post('pets', 'PetController@create');
    $router->get('pets/{petId:[0-9]+}', 'PetController@get');
});
$app->run();
