// Fails loudly when the active Node.js is older than the one the project pins (the `node` package).
const [major] = process.versions.node.split('.').map(Number);
if (major < 24) {
  console.error(
    `\nSouq needs Node.js 24 or newer, but this script runs on Node ${process.versions.node}.\n` +
      'Run it through npm (npm start, npm test, npm run …): npm puts the pinned Node 24 from\n' +
      'node_modules/.bin first on the PATH. If that fails, run `npm install` again.\n',
  );
  process.exit(1);
}
