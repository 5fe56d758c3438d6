const { src, dest, parallel } = require('gulp');

// Node and credential files reference icons as `file:../../icons/…` / `file:../icons/…`,
// so the top-level icons/ folder must land at dist/icons.
function copyIcons() {
	return src('icons/*.{svg,png}', { encoding: false }).pipe(dest('dist/icons'));
}

// Codex files (categories, documentation links) sit next to the compiled node files.
function copyCodex() {
	return src('nodes/**/*.node.json').pipe(dest('dist/nodes'));
}

exports.build = parallel(copyIcons, copyCodex);
exports.default = exports.build;
