<?php
// The service as a Symfony developer writes it from the spec, with Symfony's own defaults: a
// MicroKernelTrait kernel with FrameworkBundle and routes configured in code (`requirements` on the
// id, as Symfony's docs write it), a controller that reads the body with $request->toArray() and
// the query with $request->query->get(), JsonResponse answers, a kernel.controller subscriber that
// compares the Authorization header with the key, and a kernel.exception subscriber that answers
// every exception with an Error. Debian's Symfony 5.4, in prod mode, on PHP's built-in server
// (../serve_on_php.sh); pets are kept in the JSON file PETS_FILE names, as PHP keeps nothing
// between requests.

namespace App;

require_once 'Symfony/Bundle/FrameworkBundle/autoload.php';
require_once __DIR__ . '/../pet_file.php';

use Symfony\Bundle\FrameworkBundle\Controller\AbstractController;
use Symfony\Bundle\FrameworkBundle\FrameworkBundle;
use Symfony\Bundle\FrameworkBundle\Kernel\MicroKernelTrait;
use Symfony\Component\DependencyInjection\Loader\Configurator\ContainerConfigurator;
use Symfony\Component\EventDispatcher\EventSubscriberInterface;
use Symfony\Component\HttpFoundation\JsonResponse;
use Symfony\Component\HttpFoundation\Request;
use Symfony\Component\HttpFoundation\Response;
use Symfony\Component\HttpKernel\Event\ControllerEvent;
use Symfony\Component\HttpKernel\Event\ExceptionEvent;
use Symfony\Component\HttpKernel\Exception\BadRequestHttpException;
use Symfony\Component\HttpKernel\Exception\HttpExceptionInterface;
use Symfony\Component\HttpKernel\Exception\NotFoundHttpException;
use Symfony\Component\HttpKernel\Exception\UnauthorizedHttpException;
use Symfony\Component\HttpKernel\Kernel as BaseKernel;
use Symfony\Component\HttpKernel\KernelEvents;
use Symfony\Component\Routing\Loader\Configurator\RoutingConfigurator;

const STATUSES = ['available', 'pending', 'sold'];

function fail(int $status, string $code, string $message): JsonResponse
{
    return new JsonResponse(['code' => $code, 'message' => $message, 'status' => $status], $status);
}

/** Every operation needs the key: the docs' "before filter", on kernel.controller. */
class RequireKey implements EventSubscriberInterface
{
    private string $apiKey;

    public function __construct(string $apiKey)
    {
        $this->apiKey = $apiKey;
    }

    public static function getSubscribedEvents(): array
    {
        return [KernelEvents::CONTROLLER => 'onKernelController'];
    }

    public function onKernelController(ControllerEvent $event): void
    {
        if ($event->getRequest()->headers->get('Authorization') !== 'Bearer ' . $this->apiKey) {
            throw new UnauthorizedHttpException('Bearer', 'send Authorization: Bearer <key>');
        }
    }
}

/** Answers every exception with an Error, as the docs' exception listener does. */
class ErrorAnswers implements EventSubscriberInterface
{
    public static function getSubscribedEvents(): array
    {
        return [KernelEvents::EXCEPTION => 'onKernelException'];
    }

    public function onKernelException(ExceptionEvent $event): void
    {
        $exception = $event->getThrowable();
        if ($exception instanceof HttpExceptionInterface) {
            $status = $exception->getStatusCode();
            $text = Response::$statusTexts[$status] ?? 'HTTP error';
            $response = fail($status, strtolower(str_replace(' ', '_', $text)), $exception->getMessage() ?: $text);
            $response->headers->add($exception->getHeaders());
        } else {
            $response = fail(500, 'internal', 'internal error');
        }
        $event->setResponse($response);
    }
}

class PetStore
{
    private string $file;

    public function __construct(string $file)
    {
        $this->file = $file;
    }

    /** Runs $change on the stored pets under a lock (../pet_file.php); returns what it returns. */
    public function with(callable $change)
    {
        return \with_pets($this->file, $change);
    }
}

class PetController extends AbstractController
{
    private const DEPRECATION = [
        'Deprecation' => '@1767225600',
        'Sunset' => 'Thu, 05 Dec 2030 00:00:00 GMT',
        'Link' => '</v1/pets>; rel="successor-version"',
    ];

    private PetStore $store;

    public function __construct(PetStore $store)
    {
        $this->store = $store;
    }

    public function list(Request $request): JsonResponse
    {
        $limit = $request->query->get('limit', '20');
        if (!ctype_digit($limit) || $limit < 1 || $limit > 100) {
            throw new BadRequestHttpException('limit must be an integer from 1 to 100');
        }
        $status = $request->query->get('status');
        if ($status !== null && !in_array($status, STATUSES, true)) {
            throw new BadRequestHttpException('status must be one of ' . implode(', ', STATUSES));
        }
        $pets = $this->store->with(fn ($pets) => $pets);
        $listed = array_filter($pets, fn ($pet) => $status === null || ($pet['status'] ?? null) === $status);
        return new JsonResponse(array_slice(array_values($listed), 0, (int) $limit));
    }

    public function create(Request $request): JsonResponse
    {
        $data = $request->toArray();
        if (!is_string($data['name'] ?? null)) {
            throw new BadRequestHttpException('name is required and must be a string');
        }
        if (!is_int($data['categoryId'] ?? null)) {
            throw new BadRequestHttpException('categoryId is required and must be an integer');
        }
        if (array_key_exists('status', $data) && !in_array($data['status'], STATUSES, true)) {
            throw new BadRequestHttpException('status must be one of ' . implode(', ', STATUSES));
        }
        $pet = $this->store->with(function (&$pets) use ($data) {
            $pet = ['id' => count($pets) + 1] + array_intersect_key($data, array_flip(['name', 'categoryId', 'status']));
            $pets[] = $pet;
            return $pet;
        });
        $location = $this->generateUrl('getPet', ['petId' => $pet['id']]);
        return new JsonResponse($pet, 201, ['Location' => $location]);
    }

    public function show(int $petId): JsonResponse
    {
        $pets = $this->store->with(fn ($pets) => $pets);
        foreach ($pets as $pet) {
            if ($pet['id'] === $petId) {
                return new JsonResponse($pet, 200, self::DEPRECATION);
            }
        }
        throw new NotFoundHttpException("no pet $petId", null, 0, self::DEPRECATION);
    }
}

class Kernel extends BaseKernel
{
    use MicroKernelTrait;

    public function registerBundles(): iterable
    {
        return [new FrameworkBundle()];
    }

    protected function configureContainer(ContainerConfigurator $container): void
    {
        $services = $container->services()->defaults()->autowire()->autoconfigure();
        $services->set(PetStore::class)->arg('$file', '%env(PETS_FILE)%');
        $services->set(RequireKey::class)->arg('$apiKey', '%env(API_KEY)%');
        $services->set(ErrorAnswers::class);
        $services->set(PetController::class)->tag('controller.service_arguments');
    }

    protected function configureRoutes(RoutingConfigurator $routes): void
    {
        $routes->add('listPets', '/v1/pets')->controller([PetController::class, 'list'])->methods(['GET']);
        $routes->add('createPet', '/v1/pets')->controller([PetController::class, 'create'])->methods(['POST']);
        $routes->add('getPet', '/v1/pets/{petId}')->controller([PetController::class, 'show'])
            ->methods(['GET'])->requirements(['petId' => '\d+']);
    }

    // What Symfony writes (its var/cache and var/log) goes beside the pets, out of this folder.
    public function getCacheDir(): string
    {
        return dirname(getenv('PETS_FILE')) . '/symfony-var/cache/' . $this->environment;
    }

    public function getLogDir(): string
    {
        return dirname(getenv('PETS_FILE')) . '/symfony-var/log';
    }
}

$kernel = new Kernel('prod', false);
$request = Request::createFromGlobals();
$response = $kernel->handle($request);
$response->send();
$kernel->terminate($request, $response);
