import type { NextFunction, Request, Response } from 'express';
import { describe, expect, it, vi } from 'vitest';
import { localPath } from '../../app/lib/local-path.ts';
import { methodOverride } from '../../server/http/api.ts';
import { apiXsrfMismatch, pageOriginMismatch, securityHeaders } from '../../server/http/security.ts';

const fakeReq = (over: Partial<Request> & { headers?: Record<string, string> } = {}) => {
  const headers = over.headers ?? {};
  return {
    method: 'GET',
    secure: false,
    protocol: 'http',
    body: undefined,
    ...over,
    headers,
    get: (name: string) => headers[name.toLowerCase()],
  } as unknown as Request;
};

const fakeRes = () => {
  const headers: Record<string, string> = {};
  const setHeader = (k: string, v: string) => {
    headers[k] = v;
  };
  return { headers, locals: {} as Record<string, unknown>, setHeader };
};

describe('method override', () => {
  it('turns POST with _method=PUT into PUT and drops the field', () => {
    const req = fakeReq({ method: 'POST', body: { _method: 'put', name: 'x' } });
    const next = vi.fn();
    methodOverride(req, {} as Response, next as NextFunction);
    expect(req.method).toBe('PUT');
    expect(req.body).toEqual({ name: 'x' });
    expect(next).toHaveBeenCalled();
  });
  it('ignores other methods and unknown overrides', () => {
    const get = fakeReq({ method: 'GET', body: { _method: 'DELETE' } });
    methodOverride(get, {} as Response, vi.fn());
    expect(get.method).toBe('GET');
    const post = fakeReq({ method: 'POST', body: { _method: 'TRACE' } });
    methodOverride(post, {} as Response, vi.fn());
    expect(post.method).toBe('POST');
  });
});

describe('security headers', () => {
  const mw = securityHeaders({ development: false, mapTileUrl: 'https://{s}.tile.example.org/{z}/{x}/{y}.png' });
  it('puts a fresh nonce in the CSP and allows the map tiles', () => {
    const a = fakeRes();
    const b = fakeRes();
    mw(fakeReq(), a as unknown as Response, vi.fn());
    mw(fakeReq(), b as unknown as Response, vi.fn());
    expect(a.locals.nonce).not.toBe(b.locals.nonce);
    expect(a.headers['Content-Security-Policy']).toContain(`'nonce-${a.locals.nonce}'`);
    expect(a.headers['Content-Security-Policy']).toContain('https://*.tile.example.org');
    expect(a.headers['Strict-Transport-Security']).toBeUndefined();
  });
  it('sends HSTS only over https', () => {
    const res = fakeRes();
    mw(fakeReq({ secure: true }), res as unknown as Response, vi.fn());
    expect(res.headers['Strict-Transport-Security']).toMatch(/max-age=31536000/);
  });
});

describe('anti-forgery checks', () => {
  it('API: needs the header to equal the cookie on writes only', () => {
    expect(apiXsrfMismatch(fakeReq({ method: 'GET' }))).toBe(false);
    expect(apiXsrfMismatch(fakeReq({ method: 'POST' }))).toBe(true);
    expect(
      apiXsrfMismatch(fakeReq({ method: 'POST', headers: { cookie: 'XSRF-TOKEN=abc', 'x-xsrf-token': 'abd' } })),
    ).toBe(true);
    expect(
      apiXsrfMismatch(fakeReq({ method: 'PUT', headers: { cookie: 'a=1; XSRF-TOKEN=abc', 'x-xsrf-token': 'abc' } })),
    ).toBe(false);
  });
  it('pages: a write must come from this origin', () => {
    const own = { host: 'souq.ly' };
    expect(pageOriginMismatch(fakeReq({ method: 'POST', headers: { ...own, origin: 'http://souq.ly' } }), [])).toBe(
      false,
    );
    expect(pageOriginMismatch(fakeReq({ method: 'POST', headers: { ...own, origin: 'http://evil.ly' } }), [])).toBe(
      true,
    );
    expect(
      pageOriginMismatch(fakeReq({ method: 'POST', headers: { ...own, referer: 'http://souq.ly/contact' } }), []),
    ).toBe(false);
    expect(pageOriginMismatch(fakeReq({ method: 'POST', headers: own }), [])).toBe(true);
    expect(
      pageOriginMismatch(fakeReq({ method: 'POST', headers: { ...own, origin: 'https://www.souq.ly' } }), [
        'https://www.souq.ly',
      ]),
    ).toBe(false);
  });
});

describe('local redirect targets', () => {
  it('keeps a path of this site, as the URL parser writes it', () => {
    expect(localPath('/en/faq?x=1#top')).toBe('/en/faq?x=1#top');
    expect(localPath('/ads/سيارة-12')).toBe('/ads/%D8%B3%D9%8A%D8%A7%D8%B1%D8%A9-12');
    expect(localPath('/a/../b')).toBe('/b');
    expect(localPath(' /profile')).toBe('/profile');
  });

  it('refuses whatever a browser would read as another site, or not as a path', () => {
    for (const bad of [
      '//evil.example',
      '/\\evil.example',
      '\\\\evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      '\t//evil.example',
      '/.//evil.example',
      '/./\\evil.example',
      '/a/..//evil.example',
      'https://evil.example/',
      'HTTPS:evil.example',
      'javascript:alert(1)',
      ' javascript:alert(1)',
      'data:text/html,x',
      'evil.example/path',
      '?redirect=x',
      '',
      42,
      undefined,
      `/${'a'.repeat(3000)}`,
    ]) {
      expect(localPath(bad), JSON.stringify(bad)).toBe('/');
    }
  });

  it('never lets a line break through to a header', () => {
    expect(localPath('/a\r\nSet-Cookie: x=1')).toBe('/aSet-Cookie:%20x=1');
  });
});
