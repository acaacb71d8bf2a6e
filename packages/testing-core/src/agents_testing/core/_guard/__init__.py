"""The guard that keeps real SDK models from reaching their providers during a test."""
