// Build the site's Plotly bundle (scatter and bar only) from pinned npm packages, byte for byte the same on
// every machine.
//
//     cd scripts/plotly_bundle
//     npm ci --ignore-scripts        # exact versions and integrity hashes from package-lock.json
//     node build.mjs [OUT]           # default OUT: ../../site_builder/static/vendor/plotly/plotly-scatter-bar.min.js
//
// `python scripts/vendor_js.py` runs both steps, copies plotly.js's LICENSE next to the bundle and rewrites the
// pins (static/vendor/SHA256SUMS, VERSIONS). node_modules/ is git-ignored.
//
// What goes in is entry.js: plotly.js's own source modules, registered without the traces and components the
// site's charts never use. While bundling, the attribute descriptions (the prose of plotly.js's reference
// documentation, kept in its attribute tables as `description: ...`) are cut out of plotly.js's source files:
// the drawing code never reads them. Only a `description` property whose value is made of strings alone
// (literals, templates, concatenations, `[...].join(...)` and reads of other such descriptions) is removed;
// anything else is left as it is. Two modules are replaced by smaller ones of ours: culori (colours) by
// culori.mjs, the same functions with the colour spaces CSS can name, and the mode bar's icons by no_icons.js.
// esbuild then bundles and minifies to one script that sets `window.Plotly`; the licence comments of the bundled
// packages are kept at its end, and THIRD-PARTY-LICENSES.txt next to it holds the licence of every npm package
// whose code is in the bundle (read from esbuild's list of the files it bundled).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

import { parse } from 'acorn';
import { build } from 'esbuild';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const DEFAULT_OUT = path.join(HERE, '..', '..', 'site_builder', 'static', 'vendor', 'plotly', 'plotly-scatter-bar.min.js');
const PLOTLY = JSON.parse(readFileSync(path.join(HERE, 'node_modules', 'plotly.js', 'package.json'), 'utf8'));
const BANNER = `/*! plotly.js ${PLOTLY.version} (custom: scatter, bar), (c) Plotly, Inc., MIT licence (LICENSE next to this file). ` +
    'Built by scripts/plotly_bundle/build.mjs. */';

// ------------------------------------------------------------------------------------ description removal
function keyName(prop) {
    if (prop.computed) return null;
    if (prop.key.type === 'Identifier') return prop.key.name;
    if (prop.key.type === 'Literal' && typeof prop.key.value === 'string') return prop.key.value;
    return null;
}

// True when evaluating `node` can only produce a string (or read one): nothing is called but Array#join.
function textOnly(node) {
    switch (node.type) {
        case 'Literal':
            return typeof node.value === 'string';
        case 'Identifier':
            return true;
        case 'TemplateLiteral':
            return node.expressions.every(textOnly);
        case 'ArrayExpression':
            return node.elements.every((e) => e !== null && e.type !== 'SpreadElement' && textOnly(e));
        case 'BinaryExpression':
            return node.operator === '+' && textOnly(node.left) && textOnly(node.right);
        case 'LogicalExpression':
            return textOnly(node.left) && textOnly(node.right);
        case 'ConditionalExpression':
            return textOnly(node.test) && textOnly(node.consequent) && textOnly(node.alternate);
        case 'MemberExpression':
            return !node.computed && !node.optional && textOnly(node.object);
        case 'CallExpression':
            return (
                node.callee.type === 'MemberExpression' &&
                !node.callee.computed &&
                node.callee.property.name === 'join' &&
                node.callee.object.type === 'ArrayExpression' &&
                textOnly(node.callee.object) &&
                node.arguments.every((a) => a.type !== 'SpreadElement' && textOnly(a))
            );
        default:
            return false;
    }
}

function isDescription(prop) {
    return (
        prop.type === 'Property' &&
        prop.kind === 'init' &&
        !prop.method &&
        !prop.shorthand &&
        keyName(prop) === 'description' &&
        textOnly(prop.value)
    );
}

// Character ranges [start, end) to delete so that each removable description goes with its comma.
function descriptionRanges(source) {
    const ast = parse(source, { ecmaVersion: 'latest', sourceType: 'script', allowHashBang: true });
    const ranges = [];
    const visit = (node) => {
        if (Array.isArray(node)) {
            node.forEach(visit);
            return;
        }
        if (!node || typeof node.type !== 'string') return;
        if (node.type === 'ObjectExpression') {
            const props = node.properties;
            const gone = props.map(isDescription);
            if (gone.length && gone.every(Boolean)) {
                ranges.push([node.start + 1, node.end - 1]);
                return;
            }
            props.forEach((p, i) => {
                if (!gone[i]) return;
                if (i + 1 < props.length) ranges.push([p.start, props[i + 1].start]);
                else ranges.push([props[i - 1].end, p.end]);
            });
            props.forEach((p, i) => {
                if (!gone[i]) visit(p);
            });
            return;
        }
        for (const key of Object.keys(node)) {
            if (key !== 'type' && key !== 'start' && key !== 'end') visit(node[key]);
        }
    };
    visit(ast);
    ranges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const merged = [];
    for (const r of ranges) {
        const last = merged[merged.length - 1];
        if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
        else merged.push([r[0], r[1]]);
    }
    return merged;
}

export function stripDescriptions(source) {
    const ranges = descriptionRanges(source);
    let out = '';
    let at = 0;
    for (const [start, end] of ranges) {
        out += source.slice(at, start);
        at = end;
    }
    return { code: out + source.slice(at), removed: ranges.length };
}

const PLOTLY_SRC = path.join(HERE, 'node_modules', 'plotly.js', 'src') + path.sep;
let stripped = 0;
const withoutDescriptions = {
    name: 'plotly-without-descriptions',
    setup(b) {
        b.onLoad({ filter: /\.js$/ }, (args) => {
            if (!args.path.startsWith(PLOTLY_SRC)) return undefined;
            const { code, removed } = stripDescriptions(readFileSync(args.path, 'utf8'));
            stripped += removed;
            return { contents: code, loader: 'js', resolveDir: path.dirname(args.path) };
        });
    },
};

// Two of plotly.js's modules are replaced: `require('culori')` (the whole library) by culori.mjs (what plotly.js
// uses of it), and the mode bar's icons by no_icons.js (the site never shows the mode bar).
const replacements = {
    name: 'replacements',
    setup(b) {
        b.onResolve({ filter: /^culori$/ }, () => ({ path: path.join(HERE, 'culori.mjs') }));
        b.onResolve({ filter: /\/fonts\/ploticon$/ }, (args) =>
            args.importer.startsWith(PLOTLY_SRC) ? { path: path.join(HERE, 'no_icons.js') } : undefined,
        );
    },
};

// ----------------------------------------------------------------------------------------------- licences
// The npm packages with code in the bundle: from esbuild's inputs, "node_modules/<name>/" or "node_modules/@s/<name>/".
function bundledPackages(metafile) {
    const names = new Set();
    for (const [file, info] of Object.entries(metafile.outputs)) {
        for (const input of Object.keys(info.inputs)) {
            if (info.inputs[input].bytesInOutput === 0) continue;
            const m = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input.split(path.sep).join('/'));
            if (m) names.add(m[1]);
        }
        void file;
    }
    return [...names].sort();
}

function thirdPartyLicenses(metafile) {
    const parts = [
        'Licences of the npm packages whose code is in plotly-scatter-bar.min.js, written by',
        'scripts/plotly_bundle/build.mjs from esbuild\'s list of the files it bundled.',
        '',
    ];
    for (const name of bundledPackages(metafile)) {
        const dir = path.join(HERE, 'node_modules', name);
        const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
        const file = readdirSync(dir).sort().find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f));
        parts.push('='.repeat(100), `${name} ${pkg.version} (${pkg.license || 'licence not named in package.json'})`, '-'.repeat(100));
        parts.push(file && existsSync(path.join(dir, file)) ? readFileSync(path.join(dir, file), 'utf8').trim() : '(no licence file in the package)', '');
    }
    return parts.join('\n') + '\n';
}

// ------------------------------------------------------------------------------------------------- build
const out = path.resolve(process.argv[2] || DEFAULT_OUT);
const result = await build({
    absWorkingDir: HERE,
    entryPoints: ['entry.js'],
    bundle: true,
    format: 'iife',
    globalName: 'Plotly',
    minify: true,
    target: 'es2016',
    define: { global: 'window', 'define.amd': 'false' },
    banner: { js: BANNER },
    legalComments: 'eof',
    // maplibre-gl's stylesheet, required by the registry for map traces only (never registered here)
    loader: { '.css': 'empty' },
    plugins: [withoutDescriptions, replacements],
    write: false,
    metafile: true,
    logLevel: 'warning',
});
const bytes = result.outputFiles[0].contents;
writeFileSync(out, bytes);
writeFileSync(path.join(path.dirname(out), 'THIRD-PARTY-LICENSES.txt'), thirdPartyLicenses(result.metafile));
const gz = gzipSync(bytes, { level: 9 }).length;
console.log(`${path.basename(out)}: ${bytes.length} B, ${gz} B gzip -9 (${stripped} descriptions cut)`);
