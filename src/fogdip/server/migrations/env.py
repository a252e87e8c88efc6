"""Alembic's environment for fogdip's own migrations: run on the connection fogdip hands it
(``fogdip db upgrade``, and ``fogdip serve`` at start); there is no alembic.ini."""

from __future__ import annotations

from alembic import context

from fogdip.server.models import Base

connection = context.config.attributes["connection"]
# SQLite alters tables by copying them ("batch" mode); PostgreSQL alters them in place.
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
