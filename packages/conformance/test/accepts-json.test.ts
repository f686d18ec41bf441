import { describe, expect, it } from 'vitest';
import { acceptsJson } from '../src/oracles.js';

describe('whether an Accept takes JSON', () => {
  it.each([
    [undefined, true],
    ['', true],
    ['application/json', true],
    ['Application/JSON; charset=utf-8', true],
    ['*/*', true],
    ['application/*;q=0.5', true],
    ['application/problem+json', true],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', true],
    ['application/json, text/plain, */*', true],
    ['application/xml', false],
    ['text/html, application/xhtml+xml', false],
    ['application/json;q=0, application/xml', false],
    ['*/*; q=0', false],
    ['application/jsonp', false],
  ] as const)('%j: %s', (accept, takes) => {
    expect(acceptsJson(accept)).toBe(takes);
  });
});
