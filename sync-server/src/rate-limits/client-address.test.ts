import { describe, expect, it } from 'vitest';
import { clientAddress } from './client-address.ts';

describe('clientAddress', () => {
  it('keeps IPv4 addresses, also IPv4-mapped ones', () => {
    expect(clientAddress('203.0.113.9')).toBe('203.0.113.9');
    expect(clientAddress('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(clientAddress('::FFFF:198.51.100.7')).toBe('198.51.100.7');
  });

  it('counts IPv6 by its /64, however it is written', () => {
    const block = '2001:db8:0:1::/64';
    for (const ip of [
      '2001:db8:0:1:aaaa:bbbb:cccc:dddd',
      '2001:0DB8:0000:0001:0:0:0:1',
      '2001:db8:0:1::1',
      '2001:db8::1:0:0:0:2',
      '2001:db8:0:1::5%eth0',
    ])
      expect(clientAddress(ip)).toBe(block);
    expect(clientAddress('2001:db8:0:2::1')).not.toBe(block);
    expect(clientAddress('::1')).toBe('0:0:0:0::/64');
    expect(clientAddress('fe80::1')).toBe('fe80:0:0:0::/64');
    expect(clientAddress('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
  });

  it('passes anything else through', () => {
    expect(clientAddress('not-an-address')).toBe('not-an-address');
  });
});
