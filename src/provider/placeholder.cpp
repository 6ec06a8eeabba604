// Placeholder so the layer links before its first real file lands; delete when one does.
