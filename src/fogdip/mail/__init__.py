"""The e-mail judge: fogdip's games played by mail, at the same tables as the server's.

Letters come in (an embedded SMTP server, or an IMAP mailbox polled), are read
(:mod:`fogdip.mail.reading`), carried out at the game's table, and answered; every turn each
mail player gets its own fogged report and map (:mod:`fogdip.mail.letters`).
"""
