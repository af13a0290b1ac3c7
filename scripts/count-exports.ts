import ts from 'typescript';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
const root = process.argv[2] ?? '.';
const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'));
const entries = Object.entries(pkg.exports).flatMap(([k, v]: any) => (typeof v === 'object' && v.types ? [[k, resolve(root, v.types)]] : []));
const program = ts.createProgram(entries.map((e) => e[1] as string), { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, skipLibCheck: true, types: ['node'] });
const checker = program.getTypeChecker();
let total = 0; const all = new Map<string, string[]>();
for (const [name, file] of entries) {
  const sf = program.getSourceFile(file as string)!;
  const sym = checker.getSymbolAtLocation(sf)!;
  const exps = checker.getExportsOfModule(sym);
  let values = 0, types = 0;
  for (const e of exps) {
    const t = e.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(e) : e;
    if (t.flags & ts.SymbolFlags.Value) values++; else types++;
    const list = all.get(e.name) ?? []; list.push(name as string); all.set(e.name, list);
  }
  total += exps.length;
  console.log(`${name}\t${exps.length}\t(values ${values}, types ${types})`);
  if (process.argv.includes('--names')) console.log('   ' + exps.map((e) => e.name).join(' '));
}
console.log(`total\t${total}`);
const dup = [...all].filter(([, l]) => l.length > 1);
console.log(`names in several entries: ${dup.length}`); if (process.argv.includes('--names')) console.log(dup.map(([n, l]) => `${n}: ${l.join(',')}`).join('\n'));
