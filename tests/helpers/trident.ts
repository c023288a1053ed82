// The API under test: the compiled package entry point, as users import it.
export * from '../../dist/js/index-node.js';
