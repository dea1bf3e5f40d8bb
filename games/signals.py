"""What the match writer tells the rest of the platform, inside its transaction.

The games app knows nothing of ratings (or tournaments): those apps connect to these
signals, and their receivers run in the writer's transaction, before it commits.
"""

from django.dispatch import Signal

# A match ended with a result: ``match`` (its row, seats written) and ``ranks`` (one per
# seat, 1 = best).
match_finished = Signal()
# A match was annulled: ``match``, and ``rated_at`` (its place in the rating order, or None).
match_annulled = Signal()
