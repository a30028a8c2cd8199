import { describe, expect, it } from 'vitest';
import {
  ADMIN_LOGIN_TITLE,
  ADMIN_SCREEN_TITLES,
  isWebPagePath,
  PUBLIC_PAGE_TITLES,
  SITE_TITLE,
  WEB_PAGE_PATHS,
} from './web-routes.ts';

describe('page titles', () => {
  it('give every public page, the login page and every admin screen a title of its own, naming the site', () => {
    const titles = [
      ...Object.values(PUBLIC_PAGE_TITLES),
      ADMIN_LOGIN_TITLE,
      ...Object.values(ADMIN_SCREEN_TITLES),
    ];
    expect(new Set(titles).size).toBe(titles.length);
    for (const title of titles) {
      expect(title).toContain(SITE_TITLE);
      expect(title).not.toBe(SITE_TITLE);
    }
    expect(ADMIN_SCREEN_TITLES.liveMonitoring).toBe('Live Monitoring · Scanline');
  });
});

describe('isWebPagePath', () => {
  it('knows every public page and admin screen', () => {
    for (const path of ['/', '/buyer', '/scripts', '/script', '/admin', '/admin/login', '/admin/dashboard']) {
      expect(isWebPagePath(path), path).toBe(true);
    }
    expect(WEB_PAGE_PATHS).toContain('/admin/configuration');
    expect(WEB_PAGE_PATHS).toContain('/admin/ai-debugging');
  });

  it('matches as the client router does: any case, trailing slashes, percent-encoded letters', () => {
    for (const path of ['/BUYER', '/buyer/', '/buyer//', '/Admin/Dashboard/', '/admin/', '/%62uyer', '//']) {
      expect(isWebPagePath(path), path).toBe(true);
    }
  });

  it('knows no other path, nor an encoded slash or a malformed escape', () => {
    for (const path of [
      '/no-such-page',
      '/buyer/extra',
      '/admin/no-such-screen',
      '/admin/dashboard/extra',
      '/admin%2Fdashboard',
      '/foo/%E0%A4%A',
      '/api/public/purchase-info',
      '/assets/index.js',
    ]) {
      expect(isWebPagePath(path), path).toBe(false);
    }
  });
});
