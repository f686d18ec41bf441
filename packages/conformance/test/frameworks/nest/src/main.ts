// The service as a NestJS developer writes it from the spec, with Nest's own defaults: a global
// ValidationPipe (class-validator DTOs, `transform: true`), ParseIntPipe for petId, a guard for
// the bearer key, @Header for getPet's deprecation headers, and an exception filter that answers
// every HttpException with an Error; on Nest's default platform, Express.
//
// Usage: API_KEY=... node main.js  (listens on 127.0.0.1, port 0; prints "listening on PORT";
// stops when its stdin closes, so that it never outlives the test that started it)
import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import {
  type ArgumentsHost,
  Body,
  type CanActivate,
  Catch,
  Controller,
  type ExceptionFilter,
  type ExecutionContext,
  Get,
  Header,
  HttpException,
  Module,
  NotFoundException,
  Param,
  ParseIntPipe,
  Post,
  Query,
  Res,
  UnauthorizedException,
  ValidationPipe,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import type { Request, Response } from 'express';

const STATUSES = ['available', 'pending', 'sold'];
const API_KEY = process.env.API_KEY;

class NewPetDto {
  @IsString()
  name: string;

  // int64's bounds as a double holds them: ±2^63.
  @IsInt()
  @Min(-(2 ** 63))
  @Max(2 ** 63)
  categoryId: number;

  @IsOptional()
  @IsIn(STATUSES)
  status?: string;
}

class ListPetsQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @IsOptional()
  @IsIn(STATUSES)
  status?: string;
}

interface Pet {
  id: number;
  name: string;
  categoryId: number;
  status?: string;
}

class BearerKeyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<Request>();
    if (request.headers.authorization !== `Bearer ${API_KEY}`) {
      throw new UnauthorizedException('send Authorization: Bearer <key>');
    }
    return true;
  }
}

@Catch(HttpException)
class ErrorFilter implements ExceptionFilter {
  catch(exception: HttpException, host: ArgumentsHost) {
    const status = exception.getStatus();
    const answer = exception.getResponse();
    const said = typeof answer === 'string' ? answer : (answer as { message?: unknown }).message;
    const message = Array.isArray(said) ? said.join('; ') : String(said ?? exception.message);
    const code = exception.name.replace(/Exception$/, '').toLowerCase() || 'error';
    host.switchToHttp().getResponse<Response>().status(status).json({ code, message, status });
  }
}

@Controller('pets')
class PetsController {
  private readonly pets: Pet[] = [];

  @Get()
  list(@Query() query: ListPetsQuery): Pet[] {
    const { limit = 20, status } = query;
    return this.pets.filter((pet) => status === undefined || pet.status === status).slice(0, limit);
  }

  @Post()
  create(@Body() body: NewPetDto, @Res({ passthrough: true }) res: Response): Pet {
    const { name, categoryId, status } = body;
    const pet: Pet = {
      id: this.pets.length + 1,
      name,
      categoryId,
      ...(status === undefined ? {} : { status }),
    };
    this.pets.push(pet);
    res.location(`/v1/pets/${pet.id}`);
    return pet;
  }

  @Get(':petId')
  @Header('Deprecation', '@1767225600')
  @Header('Sunset', 'Thu, 05 Dec 2030 00:00:00 GMT')
  @Header('Link', '</v1/pets>; rel="successor-version"')
  get(@Param('petId', ParseIntPipe) petId: number): Pet {
    const pet = this.pets.find((p) => p.id === petId);
    if (pet === undefined) throw new NotFoundException(`no pet ${petId}`);
    return pet;
  }
}

@Module({ controllers: [PetsController] })
class AppModule {}

const app = await NestFactory.create(AppModule, { logger: false });
app.setGlobalPrefix('v1');
app.useGlobalGuards(new BearerKeyGuard());
app.useGlobalPipes(new ValidationPipe({ transform: true }));
app.useGlobalFilters(new ErrorFilter());
await app.listen(0, '127.0.0.1');
const { port } = app.getHttpServer().address() as AddressInfo;
console.log(`listening on ${port}`);
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
