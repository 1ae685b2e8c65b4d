from conftest import Arena
from pbem.transport.git import player


def test_smoke(arena: Arena) -> None:
    o = arena.order("north", "paper")
    print(player.submit(arena.clones["north"], o).lines)
    o = arena.order("south", "rock")
    print(player.submit(arena.clones["south"], o).lines)
    print(player.pull(arena.clones["north"], "north").lines)
    assert 0
