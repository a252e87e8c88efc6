"""The e-mail judge: fogdip's games played by mail, beside the web's players and the bots,
on the same tables (issue 23). Mail comes in over SMTP or IMAP, each mail's commands are
carried out in one transaction, and every mail out is queued in the database with what
caused it, then sent through a relay."""
