"""Turns through git (docs/git.md): the game folder's public files are a repository.

Players push sealed orders into ``inbox/``; a referee running on push (a bare repository's
hooks, or a hosted CI job) checks them, adjudicates complete steps and commits the new entry
and reports. Only the git command-line tool is used (subprocess), so any host works. Every call
into the protocol goes through ``adapter`` so the protocol can change under it in one place.
"""
