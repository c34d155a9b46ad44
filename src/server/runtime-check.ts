/**
 * Imported first by every entry point: on an older Node the server would fail later in obscure ways
 * (native SQLite driver, fetch and crypto APIs), so it refuses at once with one line.
 */
const MINIMUM_NODE_MAJOR = 22;

if (Number(process.versions.node.split('.')[0]) < MINIMUM_NODE_MAJOR) {
  console.error(
    `This server needs Node.js ${MINIMUM_NODE_MAJOR} or newer (this is ${process.version}); install Node 24 LTS, or use \`npm start\`, which brings it.`,
  );
  process.exit(1);
}
