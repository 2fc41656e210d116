import { readFileSync } from 'node:fs';
import path from 'node:path';

export const manifestTemplatesDir = path.resolve(import.meta.dirname, '../../../manifest-templates');

export type ManifestData = {
  name: string;
  shortName: string;
  description: string;
  startUrl: string;
  scope: string;
  themeColor: string;
  backgroundColor: string;
  iconBase: string;
};

export const defaultManifestData: ManifestData = {
  name: 'Coaching Platform',
  shortName: 'Coaching',
  description: 'Bookings, payments, time tracking and your customers — in one app that works offline.',
  startUrl: '/dashboard',
  scope: '/',
  themeColor: '#0f766e',
  backgroundColor: '#ffffff',
  iconBase: '/icons',
};

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/**
 * Fills `{{key}}` placeholders inside string values of a parsed template. Substituting after
 * parsing means a name with quotes or braces can never break the JSON.
 */
export function renderTemplate(template: Json, data: Record<string, string>): Json {
  if (typeof template === 'string') {
    return template.replace(/\{\{(\w+)\}\}/g, (whole, key: string) => data[key] ?? whole);
  }
  if (Array.isArray(template)) return template.map((item) => renderTemplate(item, data));
  if (template && typeof template === 'object') {
    return Object.fromEntries(Object.entries(template).map(([key, value]) => [key, renderTemplate(value, data)]));
  }
  return template;
}

let cachedTemplate: Json | undefined;
export function loadManifestTemplate(): Json {
  cachedTemplate ??= JSON.parse(readFileSync(path.join(manifestTemplatesDir, 'app.webmanifest.json'), 'utf8')) as Json;
  return cachedTemplate;
}

export function renderManifest(data: ManifestData = defaultManifestData): Json {
  return renderTemplate(loadManifestTemplate(), data);
}
