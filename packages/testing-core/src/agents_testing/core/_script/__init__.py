"""The strict FIFO step script every double consumes, and its unordered groups."""
