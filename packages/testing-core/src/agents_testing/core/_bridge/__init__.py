"""How the import bridge resolves a bridged name; loaded on the first such import."""
