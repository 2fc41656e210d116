import { isIP } from 'node:net';

/**
 * The address a per-address limit counts against. IPv4 as it is (also when written as an
 * IPv4-mapped IPv6 address); IPv6 by its /64, the block one subscriber usually holds — else one
 * home could take a fresh address for every guess.
 */
export function clientAddress(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped?.[1]) return mapped[1];
  const address = ip.split('%')[0] ?? ip;
  if (isIP(address) !== 6) return ip;
  const [head = '', tail] = address.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  // An embedded IPv4 tail (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) fills two groups.
  const rightGroups = right.reduce((count, group) => count + (group.includes('.') ? 2 : 1), 0);
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - rightGroups).fill('0');
  const groups = [...left, ...zeros, ...right].slice(0, 4);
  return `${groups.map((group) => parseInt(group, 16).toString(16)).join(':')}::/64`;
}
