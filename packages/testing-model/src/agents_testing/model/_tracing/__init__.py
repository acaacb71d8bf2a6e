"""The optional generation spans a scripted model opens, like a real model's."""
