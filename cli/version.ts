import fs from 'node:fs';
import path from 'node:path';

/** The version in Assay's package.json: beside the sources (`cli/`) or two levels up from a build (`dist/cli/`). */
export function assayVersion(): string {
  for (const up of ['..', '../..']) {
    const file = path.join(__dirname, up, 'package.json');
    if (!fs.existsSync(file)) continue;
    const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
    if (pkg.name === 'assay' && pkg.version) return pkg.version;
  }
  return 'unknown';
}
