import { describe, expect, it } from 'vitest';
import { brandedOrgIdOf, readableWithWhiteText } from './branded-path.rules.ts';

const id = '0b7f7a8e-2a52-4d4c-9f6e-0a8d6e3c1b2a';

describe('brandedOrgIdOf', () => {
  it('finds the organisation of customer-app pages and branded sign-in pages only', () => {
    expect(brandedOrgIdOf(`/dashboard-customer/${id}`, '')).toBe(id);
    expect(brandedOrgIdOf(`/dashboard-customer/${id.toUpperCase()}/settings`, '?x=1')).toBe(id);
    expect(brandedOrgIdOf('/auth/signup', `?orgId=${id}`)).toBe(id);
    expect(brandedOrgIdOf('/documents/waiver-of-liability', `?orgId=${id}`)).toBe(id);
    expect(brandedOrgIdOf(`/dashboard-customer/${id}x`, '')).toBeNull();
    expect(brandedOrgIdOf('/dashboard', `?orgId=${id}`)).toBeNull();
    expect(brandedOrgIdOf('/auth/login', '?orgId=nope')).toBeNull();
    expect(brandedOrgIdOf('/dashboard-customer', '')).toBeNull();
  });
});

describe('readableWithWhiteText', () => {
  it('accepts dark accents and refuses light ones', () => {
    expect(readableWithWhiteText('#0f766e')).toBe(true);
    expect(readableWithWhiteText('#1d4ed8')).toBe(true);
    expect(readableWithWhiteText('#fde047')).toBe(false);
    expect(readableWithWhiteText('#ffffff')).toBe(false);
    expect(readableWithWhiteText('red')).toBe(false);
  });
});
