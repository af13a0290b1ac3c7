// The public surface of every entry point, as API Extractor reports it, checked in under `api/`.
//
//   tsx scripts/api-report.ts           fails when a report differs from the built declarations
//   tsx scripts/api-report.ts --update  writes the reports (commit them with the change that made them)
//
// Reads the bundled declarations in dist/, so run it after `npm run build`.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Extractor, ExtractorConfig, ExtractorLogLevel } from '@microsoft/api-extractor';

const root = resolve(import.meta.dirname, '..');
const update = process.argv.includes('--update');
const reportFolder = resolve(root, 'api');
mkdirSync(reportFolder, { recursive: true });

interface ExportTarget {
  readonly types?: string;
}

const manifest = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { exports: Record<string, ExportTarget | string> };
const entries = Object.entries(manifest.exports).flatMap(([subpath, target]) =>
  typeof target === 'object' && target.types !== undefined ? [{ subpath, types: target.types }] : [],
);

let failed = 0;
for (const { subpath, types } of entries) {
  const name = subpath === '.' ? 'stopwise' : `stopwise-${subpath.slice(2).replaceAll('/', '-')}`;
  const entry = resolve(root, types);
  if (!existsSync(entry)) {
    console.error(`${types} is missing: run npm run build first`);
    process.exit(2);
  }
  const config = ExtractorConfig.prepare({
    configObject: {
      projectFolder: root,
      mainEntryPointFilePath: entry,
      bundledPackages: [],
      compiler: { overrideTsconfig: { compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', lib: ['ES2023'], types: ['node'], skipLibCheck: true } } },
      apiReport: { enabled: true, reportFolder, reportTempFolder: resolve(root, 'node_modules/.cache/stopwise/api'), reportFileName: `${name}.api.md` },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      messages: {
        compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Warning } },
        extractorMessageReporting: {
          default: { logLevel: ExtractorLogLevel.Warning },
          // Declarations are bundled by tsup; release tags are not used: everything exported is public.
          'ae-missing-release-tag': { logLevel: ExtractorLogLevel.None },
          // A type from another entry point is not exported here by design; TypeDoc's notExported check covers the rest.
          'ae-forgotten-export': { logLevel: ExtractorLogLevel.None, addToApiReportFile: false },
          // Members need no TSDoc of their own; exports carry it.
          'ae-undocumented': { logLevel: ExtractorLogLevel.None },
          // Optional peers (the LangGraph types) ship .ts sources beside their declarations.
          'ae-wrong-input-file-type': { logLevel: ExtractorLogLevel.None },
        },
        tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
      },
    },
    configObjectFullPath: resolve(root, 'api-extractor.json'),
    packageJsonFullPath: resolve(root, 'package.json'),
  });
  const result = Extractor.invoke(config, { localBuild: update, showVerboseMessages: false, messageCallback: quiet });
  if (!result.succeeded || (!update && result.apiReportChanged)) {
    failed += 1;
    console.error(
      result.apiReportChanged
        ? `the public surface of "${subpath === '.' ? 'stopwise' : `stopwise/${subpath.slice(2)}`}" changed: api/${name}.api.md is out of date. Review the change, then run npm run api:update and commit the report.`
        : `API Extractor failed on ${types}`,
    );
  }
}
if (failed > 0) process.exit(1);
console.log(update ? `wrote ${entries.length} API reports to api/` : `${entries.length} API reports match the built declarations`);

function quiet(message: { logLevel: ExtractorLogLevel; text: string; handled: boolean }): void {
  // The report diff is printed by this script in one line; other messages keep their level.
  if (message.text.includes('You have changed the API signature')) {
    message.handled = true;
  }
  if (message.logLevel === ExtractorLogLevel.Info || message.logLevel === ExtractorLogLevel.Verbose) message.handled = true;
}
