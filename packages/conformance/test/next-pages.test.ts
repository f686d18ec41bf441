import { describe, expect, it } from 'vitest';
import { CheckContext } from '../src/context.js';
import type { Fixtures } from '../src/fixtures.js';
import type { HttpClient, HttpRequest, HttpResponse } from '../src/http/client.js';
import { laterPages, MAX_LATER_PAGES, nextPageUrl, unfollowedNextPage } from '../src/http/pages.js';
import { answer } from './support/answer.js';

// The kit follows a server's `Link: <…>; rel="next"` to read a list past its first page, and
// sends its key with each request: only ever to a target below the base URL.

/** A `200` list page at `url` whose `Link` header is `link` (none when undefined). */
function page(url: string, link?: string, text = '[]', status = 200): HttpResponse {
  const res = { ...answer({ path: '/pets', status, text }), url };
  if (link !== undefined) res.headers.set('link', link);
  return res;
}

const next = (target: string) => `<${target}>; rel="next"`;

describe('the next page’s URL', () => {
  const base = 'http://127.0.0.1:8080/v1';
  const first = 'http://127.0.0.1:8080/v1/pets?limit=1';
  const target = (link: string | undefined, baseUrl = base, url = first) =>
    nextPageUrl(page(url, link), baseUrl);

  it('resolves a target against the page’s URL', () => {
    expect(target(next('/v1/pets?after=3'))).toBe('http://127.0.0.1:8080/v1/pets?after=3');
    expect(target(next('pets?after=3'))).toBe('http://127.0.0.1:8080/v1/pets?after=3');
    expect(target(next('?after=3'))).toBe('http://127.0.0.1:8080/v1/pets?after=3');
    expect(target(next('http://127.0.0.1:8080/v1/pets?after=3'))).toBe(
      'http://127.0.0.1:8080/v1/pets?after=3',
    );
  });

  it('takes the target at the base URL itself and below it', () => {
    expect(target(next('/v1'))).toBe('http://127.0.0.1:8080/v1');
    expect(target(next('/v1/other/pets'))).toBe('http://127.0.0.1:8080/v1/other/pets');
  });

  it('refuses a target on another origin: host, port or scheme', () => {
    expect(target(next('http://elsewhere.example/v1/pets?after=3'))).toBeUndefined();
    expect(target(next('http://127.0.0.1:8081/v1/pets?after=3'))).toBeUndefined();
    expect(target(next('https://127.0.0.1:8080/v1/pets?after=3'))).toBeUndefined();
    expect(target(next('//elsewhere.example/v1/pets'))).toBeUndefined();
  });

  it('refuses a target beside the base path or above it, and one with a fragment', () => {
    expect(target(next('/v10/pets'))).toBeUndefined();
    expect(target(next('/v1x'))).toBeUndefined();
    expect(target(next('/pets?after=3'))).toBeUndefined();
    expect(target(next('/v1/pets?after=3#more'))).toBeUndefined();
  });

  it('is none without a next link, or with one that is no URL', () => {
    expect(target(undefined)).toBeUndefined();
    expect(target('</v1/pets?after=3>; rel="prev"')).toBeUndefined();
    expect(target(next('http://[::1'))).toBeUndefined();
  });

  it('follows a base URL that is an origin, and one under a deeper path', () => {
    expect(
      target(next('/pets?after=3'), 'http://127.0.0.1:8080', 'http://127.0.0.1:8080/pets'),
    ).toBe('http://127.0.0.1:8080/pets?after=3');
    expect(
      target(
        next('/api/v1/pets?after=3'),
        'http://127.0.0.1:8080/api/v1',
        'http://127.0.0.1:8080/api/v1/pets',
      ),
    ).toBe('http://127.0.0.1:8080/api/v1/pets?after=3');
    expect(
      target(
        next('/api/pets'),
        'http://127.0.0.1:8080/api/v1',
        'http://127.0.0.1:8080/api/v1/pets',
      ),
    ).toBeUndefined();
  });
});

describe('a next page the kit does not follow', () => {
  const base = 'http://127.0.0.1:8080/v1';
  const first = 'http://127.0.0.1:8080/v1/pets?limit=1';
  const unfollowed = (link: string | undefined) => unfollowedNextPage(page(first, link), base);

  it('is the target as written when it lies outside the base URL or is no URL', () => {
    expect(unfollowed(next('/v1/pets?after=3'))).toBeUndefined();
    expect(unfollowed(next('pets?after=3'))).toBeUndefined();
    // A front that serves the API under a prefix, and a Link the API wrote for /v1 alone.
    expect(unfollowed(next('/animal-store/v1/pets?after=3'))).toBe('/animal-store/v1/pets?after=3');
    expect(unfollowed(next('/v2/pets?after=3'))).toBe('/v2/pets?after=3');
    expect(unfollowed(next('https://127.0.0.1:8080/v1/pets'))).toBe(
      'https://127.0.0.1:8080/v1/pets',
    );
    expect(unfollowed(next('http://[::1'))).toBe('http://[::1');
  });

  it('is none without a next link', () => {
    expect(unfollowed(undefined)).toBeUndefined();
    expect(unfollowed('</v2/pets?after=3>; rel="prev"')).toBeUndefined();
  });
});

describe('the later pages of a list', () => {
  const base = 'http://127.0.0.1:8080/v1';

  /** A context whose client answers each URL from `pages`, counting what it sends. */
  function context(pages: Record<string, HttpResponse>) {
    const sent: HttpRequest[] = [];
    const http = {
      baseUrl: base,
      async send(request: HttpRequest) {
        sent.push(request);
        const res = pages[request.path];
        if (res === undefined) throw new Error(`no page at ${request.path}`);
        return res;
      },
    } as unknown as HttpClient;
    const fixtures = { creations: 0, settled: async () => {} } as unknown as Fixtures;
    return { ctx: new CheckContext(http, fixtures, false, 'key', 1), sent };
  }

  async function read(ctx: CheckContext, first: HttpResponse) {
    const pages: HttpResponse[] = [];
    for await (const later of laterPages(ctx, first)) {
      expect(later.items).toBe(later.res.body);
      pages.push(later.res);
    }
    return pages;
  }

  const url = (n: number) => `${base}/pets?after=${n}`;

  it('reads each page a next link names, until one names none', async () => {
    const second = page(url(1), next(url(2)), '[{"id":2}]');
    const third = page(url(2), undefined, '[{"id":3}]');
    const { ctx, sent } = context({ [url(1)]: second, [url(2)]: third });
    expect(await read(ctx, page(`${base}/pets`, next(url(1))))).toEqual([second, third]);
    expect(sent.map((r) => [r.method, r.path])).toEqual([
      ['GET', url(1)],
      ['GET', url(2)],
    ]);
  });

  it('stops at a page that is not 200, or whose body is no array', async () => {
    for (const last of [page(url(1), next(url(2)), '[]', 404), page(url(1), next(url(2)), '{}')]) {
      const { ctx, sent } = context({ [url(1)]: last });
      expect(await read(ctx, page(`${base}/pets`, next(url(1))))).toEqual([]);
      expect(sent.length).toBe(1);
    }
  });

  it('reads at most MAX_LATER_PAGES pages of a list that never ends', async () => {
    const endless = page(url(1), next(url(1)));
    const { ctx } = context({ [url(1)]: endless });
    const pages = await read(ctx, page(`${base}/pets`, next(url(1))));
    expect(MAX_LATER_PAGES).toBe(100);
    expect(pages.length).toBe(MAX_LATER_PAGES);
  });

  it('asks once for a page two checks read while the data stays the same', async () => {
    const second = page(url(1), undefined, '[{"id":2}]');
    const { ctx, sent } = context({ [url(1)]: second });
    const first = page(`${base}/pets`, next(url(1)));
    await read(ctx, first);
    await read(ctx, first);
    expect(sent.length).toBe(1);
  });

  it('sends nothing after a first page without a next link below the base URL', async () => {
    const { ctx, sent } = context({});
    expect(await read(ctx, page(`${base}/pets`, next('http://elsewhere.example/v1/pets')))).toEqual(
      [],
    );
    expect(sent).toEqual([]);
  });
});
