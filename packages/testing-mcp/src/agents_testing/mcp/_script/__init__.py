"""Building the call script: each step checked, its static result snapshotted."""
