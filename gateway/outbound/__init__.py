"""Outbound mail: what happens to a message an identity sends, after it is built.

`relay` hands external recipients to the configured SMTP relay; `schedule` says when a
relay that failed temporarily is tried again.
"""
