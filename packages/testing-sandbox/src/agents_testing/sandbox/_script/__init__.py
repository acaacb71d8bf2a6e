"""Building a sandbox script: steps checked and their static results snapshotted."""
