// Validates an AsyncAPI document with the AsyncAPI initiative's own parser (@asyncapi/parser),
// which checks it against the specification's JSON Schema and its rule set, and resolves every
// `$ref` and message payload.
//
//   node validate.cjs TOOLS_DIR DOCUMENT.json
//
// TOOLS_DIR holds node_modules/@asyncapi/parser (scripts/test.sh installs it into target/tools).
// Prints every diagnostic as `severity path: message`, then the document's message counts, and
// exits 1 when the parser reports an error (or cannot read the document at all), 0 otherwise.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const { createRequire } = require("node:module");

async function main() {
  const [toolsDir, file] = process.argv.slice(2);
  if (!toolsDir || !file) {
    console.error("usage: node validate.cjs TOOLS_DIR DOCUMENT.json");
    process.exit(2);
  }
  const load = createRequire(path.join(path.resolve(toolsDir), "package.json"));
  const { Parser } = load("@asyncapi/parser");
  const parser = new Parser();
  const { document, diagnostics } = await parser.parse(fs.readFileSync(file, "utf8"));
  const names = ["error", "warning", "info", "hint"];
  let errors = 0;
  for (const d of diagnostics) {
    if (d.severity === 0) errors += 1;
    console.log(`${names[d.severity] ?? d.severity} ${d.path.join(".")}: ${d.message}`);
  }
  if (!document || errors > 0) {
    console.log(`invalid: ${errors} error(s)`);
    process.exit(1);
  }
  const messages = document.allMessages().all().map((m) => m.id());
  const operations = document.operations().all().map((o) => `${o.id()}:${o.action()}:${o.messages().all().length}`);
  console.log(`valid: asyncapi ${document.version()}, ${messages.length} messages, operations ${operations.join(" ")}`);
  console.log(`messages ${messages.sort().join(" ")}`);
}

main().catch((e) => {
  console.error(e && e.stack ? e.stack : String(e));
  process.exit(1);
});
