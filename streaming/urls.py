from django.urls import path

from . import views

app_name = "streaming"
urlpatterns = [
    path("keys/", views.create_key, name="create_key"),
    path("keys/<str:key_id>/revoke/", views.revoke_key, name="revoke_key"),
]
