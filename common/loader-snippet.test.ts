import { describe, expect, it } from 'vitest';
import { buildLoaderSnippet, buildLoaderUrl } from './loader-snippet.ts';

describe('buildLoaderSnippet', () => {
  it('loads the named script through the loader of the given origin', () => {
    expect(buildLoaderSnippet('https://scan.example', 'scanline-free.lua')).toBe(
      'loadstring(game:HttpGet("https://scan.example/api/script/loader?script=scanline-free.lua"))()',
    );
  });

  it('encodes the script name and ignores a trailing slash on the origin', () => {
    expect(buildLoaderSnippet('http://127.0.0.1:5000/', 'my script&x.lua')).toBe(
      'loadstring(game:HttpGet("http://127.0.0.1:5000/api/script/loader?script=my%20script%26x.lua"))()',
    );
  });
});

describe('buildLoaderUrl', () => {
  it('adds the key for key-protected scripts, encoded', () => {
    expect(buildLoaderUrl('https://scan.example', 'premium.lua', 'SCAN KEY&1')).toBe(
      'https://scan.example/api/script/loader?script=premium.lua&key=SCAN%20KEY%261',
    );
  });

  it('is the address inside the snippet', () => {
    const snippet = buildLoaderSnippet('https://scan.example', 'premium.lua', 'K');
    expect(snippet).toContain(buildLoaderUrl('https://scan.example', 'premium.lua', 'K'));
  });
});
