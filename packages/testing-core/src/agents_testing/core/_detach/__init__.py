"""Detached snapshots of call data, so recorded history never changes afterwards."""
